// SPDX-License-Identifier: GPL-2.0
/* CPU sets: cpulist parse and format.  Pure. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cpuset.h"
#include "lib/parse.h"

int cpuset_init(struct cpuset *s, int n)
{
	s->n = n > 0 ? n : 1;
	s->on = calloc((size_t)s->n, sizeof(*s->on));
	return s->on ? 0 : -ENOMEM;
}

void cpuset_free(struct cpuset *s)
{
	free(s->on);
	s->on = NULL;
	s->n = 0;
}

void cpuset_clear(struct cpuset *s)
{
	memset(s->on, 0, (size_t)s->n * sizeof(*s->on));
}

static int number(const char **p)
{
	long v = 0;

	if (**p < '0' || **p > '9')
		return -1;
	while (**p >= '0' && **p <= '9') {
		v = v * 10 + (**p - '0');
		if (v > 1 << 20)
			return -1;
		(*p)++;
	}
	return (int)v;
}

int cpuset_add_list(struct cpuset *s, const char *list)
{
	const char *p = list;
	int a, b, i;

	if (*p == '\n' || !*p)
		return *p && p[1] ? -1 : 0;
	for (;;) {
		a = number(&p);
		b = a;
		if (a < 0)
			return -1;
		if (*p == '-') {
			p++;
			b = number(&p);
			if (b < a)
				return -1;
		}
		if (b >= s->n)
			return -1;
		for (i = a; i <= b; i++)
			s->on[i] = true;
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '\n')
			p++;
		return *p ? -1 : 0;
	}
}

void cpuset_set(struct cpuset *s, int cpu)
{
	if (cpu >= 0 && cpu < s->n)
		s->on[cpu] = true;
}

bool cpuset_has(const struct cpuset *s, int cpu)
{
	return cpu >= 0 && cpu < s->n && s->on[cpu];
}

int cpuset_count(const struct cpuset *s)
{
	int i, c = 0;

	for (i = 0; i < s->n; i++)
		c += s->on[i];
	return c;
}

void cpuset_or(struct cpuset *dst, const struct cpuset *src)
{
	int i;

	for (i = 0; i < src->n && i < dst->n; i++)
		dst->on[i] |= src->on[i];
}

bool cpuset_subset(const struct cpuset *a, const struct cpuset *b)
{
	int i;

	for (i = 0; i < a->n; i++)
		if (a->on[i] && !cpuset_has(b, i))
			return false;
	return true;
}

bool cpuset_equal(const struct cpuset *a, const struct cpuset *b)
{
	return cpuset_subset(a, b) && cpuset_subset(b, a);
}

/* Append CPU @a, or range @a-@b, to the cpulist in @buf at *@used: 0, or
 * -1 (@buf ends before it: never a partial range) if it does not fit. */
static int put_range(char *buf, size_t len, size_t *used, int a, int b)
{
	const char *sep = *used ? "," : "";
	int w;

	if (a == b)
		w = snprintf(buf + *used, len - *used, "%s%d", sep, a);
	else
		w = snprintf(buf + *used, len - *used, "%s%d-%d", sep, a, b);
	if (w < 0 || (size_t)w >= len - *used) {
		buf[*used] = '\0';
		return -1;
	}
	*used += (size_t)w;
	return 0;
}

char *cpuset_format(const struct cpuset *s, char *buf, size_t len)
{
	size_t used = 0;
	int i = 0, j;

	if (!len)
		return buf;
	buf[0] = '\0';
	while (i < s->n) {
		if (!s->on[i]) {
			i++;
			continue;
		}
		for (j = i; j + 1 < s->n && s->on[j + 1]; j++)
			;
		if (put_range(buf, len, &used, i, j))
			break;
		i = j + 1;
	}
	return buf;
}

char *cpulist_format(const int *ids, size_t n, char *buf, size_t len)
{
	size_t used = 0, i = 0, j;

	if (!len)
		return buf;
	buf[0] = '\0';
	while (i < n) {
		for (j = i; j + 1 < n && ids[j + 1] == ids[j] + 1; j++)
			;
		if (put_range(buf, len, &used, ids[i], ids[j]))
			break;
		i = j + 1;
	}
	return buf;
}

bool cpulist_same(const char *a, const char *b, int ncpus)
{
	struct cpuset x, y;
	bool same = false;

	if (cpuset_init(&x, ncpus))
		return false;
	if (!cpuset_init(&y, ncpus)) {
		same = !cpuset_add_list(&x, a) && !cpuset_add_list(&y, b) &&
		       cpuset_equal(&x, &y);
		cpuset_free(&y);
	}
	cpuset_free(&x);
	return same;
}

int cpuset_add_mask(struct cpuset *s, const char *mask)
{
	size_t n = strcspn(mask, "\n"), i;
	int bit = 0, d, b, digits = 0;

	if (!n || (mask[n] && mask[n + 1]))
		return -1;
	/* From the least significant digit, words of 8 digits. */
	for (i = n; i-- > 0;) {
		if (mask[i] == ',') {
			if (digits == 0 || digits > 8)
				return -1;
			bit += 4 * (8 - digits);	/* a short word is zero-padded */
			digits = 0;
			continue;
		}
		d = hex_digit(mask[i]);
		if (d < 0 || ++digits > 8)
			return -1;
		for (b = 0; b < 4; b++, bit++)
			if (d & (1 << b))
				cpuset_set(s, bit);
	}
	return digits ? 0 : -1;
}

char *cpuset_format_mask(const struct cpuset *s, const char *like, char *buf,
			 size_t len)
{
	size_t n = strcspn(like, "\n"), used = 0;
	int words = 1, first = (int)strcspn(like, ",\n"), w, b;
	size_t i;

	for (i = 0; i < n; i++)
		words += like[i] == ',';
	if (first < 1 || first > 8)
		first = 8;
	if (len)
		buf[0] = '\0';
	for (w = words - 1; w >= 0 && used + 10 < len; w--) {
		int digits = w == words - 1 ? first : 8;
		unsigned long v = 0;

		for (b = 0; b < 4 * digits; b++)
			if (cpuset_has(s, 32 * w + b))
				v |= 1UL << b;
		used += (size_t)snprintf(buf + used, len - used, "%s%0*lx",
					 w == words - 1 ? "" : ",", digits, v);
	}
	return buf;
}
