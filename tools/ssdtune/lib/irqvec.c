// SPDX-License-Identifier: GPL-2.0
/* A PCI function's interrupt vectors and their identity (irqvec.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/bdf.h"
#include "lib/irqvec.h"
#include "lib/parse.h"
#include "uapi/linux/ssdtune.h"
#include "lib/ssdtdev.h"
#include "lib/sysfs.h"

#define PROC_INTERRUPTS	"/proc/interrupts"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int irqvec_parse_line(const char *line, int *irq, char *name, size_t len)
{
	const char *p = line, *last = NULL, *f;
	unsigned int v;
	size_t n = 0, fl;

	while (*p == ' ')
		p++;
	if (parse_dec(&p, &v) || *p != ':' || v > 0x7fffffff)
		return -1;
	p++;
	while (!parse_field(&p, &f, &fl)) {
		last = f;
		n = fl;
	}
	if (!last || !len)
		return -1;
	if (n >= len)
		n = len - 1;
	memcpy(name, last, n);
	name[n] = '\0';
	*irq = (int)v;
	return 0;
}

int irqvec_msi_entry(const char *chip, unsigned long long hw, const char *bdf)
{
	size_t bl = strlen(bdf);
	struct bdf b;

	if (!strncmp(chip, "IR-", 3))		/* interrupt remapping */
		chip += 3;
	/* 6.2+: a domain per device, "PCI-MSIX-0000:41:00.0": hwirq = entry */
	if ((!strncmp(chip, "PCI-MSIX-", 9) && !strcmp(chip + 9, bdf)) ||
	    (!strncmp(chip, "PCI-MSI-", 8) && !strcmp(chip + 8, bdf)))
		return hw <= 0x7fffffffULL ? (int)hw : -1;
	/* Before: one "PCI-MSI" domain, hwirq = entry | devid << 11 |
	 * domain << 27 (pci_msi_domain_calc_hwirq()); check it is @bdf's. */
	if (!strcmp(chip, "PCI-MSI") && bl && !bdf_parse(bdf, &b) &&
	    ((hw >> 11) & 0xffff) == (b.bus << 8 | b.dev << 3 | b.fn) &&
	    (hw >> 27) == b.domain)
		return (int)(hw & 0x7ff);
	return -1;
}

int irqvec_parse_hw(const char *line, int *irq, char *chip, size_t clen,
		    unsigned long long *hwirq)
{
	const char *p = line, *f;
	unsigned long long hw = 0;
	unsigned int v;
	size_t fl;

	while (*p == ' ')
		p++;
	if (parse_dec(&p, &v) || *p != ':' || v > 0x7fffffff || !clen)
		return -1;
	p++;
	*irq = (int)v;
	chip[0] = '\0';
	*hwirq = ~0ULL;
	/* the per-CPU counts, then the chip, then the hwirq ("5-edge") */
	do {
		if (parse_field(&p, &f, &fl))
			return 0;
	} while (strspn(f, "0123456789") >= fl);
	if (fl >= clen)
		return 0;
	memcpy(chip, f, fl);
	chip[fl] = '\0';
	if (parse_field(&p, &f, &fl) || !is_digit(*f))
		return 0;
	for (; fl && is_digit(*f); f++, fl--) {
		if (hw > 0xffffffffffULL)
			return 0;
		hw = hw * 10 + (unsigned int)(*f - '0');
	}
	*hwirq = hw;
	return 0;
}

int irqvec_parse_total(const char *line, int *irq,
		       unsigned long long *total)
{
	const char *p = line;
	unsigned long long sum = 0, v;
	unsigned int n;

	while (*p == ' ')
		p++;
	if (parse_dec(&p, &n) || *p != ':' || n > 0x7fffffff)
		return -1;
	*irq = (int)n;
	for (p++;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!is_digit(*p))
			break;
		for (v = 0; is_digit(*p); p++)
			v = v * 10 + (unsigned int)(*p - '0');
		if (*p && *p != ' ' && *p != '\t' && *p != '\n')
			break;	/* "5-edge": the hwirq, not a count */
		sum += v;
	}
	*total = sum;
	return 0;
}

struct irqline {
	int irq;
	char name[64];
	char chip[64];
	unsigned long long hwirq;
};

int irqtable_read(struct irqtable *t, struct lib_err *err)
{
	char *line = NULL, name[64];
	struct irqline *l;
	size_t cap = 0;
	int irq, alloc = 0;
	FILE *f = fopen(PROC_INTERRUPTS, "re");

	t->l = NULL;
	t->n = 0;
	if (!f)
		return 0;	/* no procfs: no names, entries by rank */
	while (getline(&line, &cap, f) > 0) {
		if (irqvec_parse_line(line, &irq, name, sizeof(name)))
			continue;
		if (t->n == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			l = realloc(t->l, (size_t)alloc * sizeof(*l));
			if (!l) {
				free(line);
				fclose(f);
				irqtable_free(t);
				return lib_enomem(err);
			}
			t->l = l;
		}
		l = &t->l[t->n++];
		snprintf(l->name, sizeof(l->name), "%s", name);
		irqvec_parse_hw(line, &l->irq, l->chip, sizeof(l->chip),
				    &l->hwirq);
	}
	free(line);
	fclose(f);
	return 0;
}

void irqtable_free(struct irqtable *t)
{
	free(t->l);
	t->l = NULL;
	t->n = 0;
}

static const struct irqline *line_of(const struct irqtable *t, int irq)
{
	int i;

	for (i = 0; i < t->n; i++)
		if (t->l[i].irq == irq)
			return &t->l[i];
	return NULL;
}

static int by_entry(const void *a, const void *b)
{
	const struct irqvec *x = a, *y = b;

	return (x->entry > y->entry) - (x->entry < y->entry);
}

/* The IRQ numbers in @bdf's msi_irqs, ascending; else its INTx line. */
static int irq_numbers(const char *bdf, int **out, struct lib_err *err)
{
	char p[PATH_MAX], buf[64], *end;
	int n, r, *v;
	long x;

	*out = NULL;
	snprintf(p, sizeof(p), SYS_PCI_DEVICES "/%s/msi_irqs", bdf);
	n = sys_list_numbered(p, "", &v);
	if (n < 0)
		return lib_enomem(err);
	if (n) {
		*out = v;
		return n;
	}
	free(v);
	/* No MSI: the INTx line, if it has one. */
	snprintf(p, sizeof(p), SYS_PCI_DEVICES "/%s/irq", bdf);	/* lint-names: the PCI core's */
	r = sys_read(p, buf, sizeof(buf));
	if (r == -ENOENT)
		return 0;
	if (r)
		return lib_errf(err, -r, "cannot read %s: %s", p, strerror(-r));
	errno = 0;
	x = strtol(buf, &end, 10);
	if (!buf[0] || *end || errno || x < -1 || x > 0x7fffffff)
		return lib_errf(err, EINVAL, "%s: malformed (expected an integer, got '%s')",
				p, buf);
	if (x <= 0)
		return 0;
	v = malloc(sizeof(*v));
	if (!v)
		return lib_enomem(err);
	v[0] = (int)x;
	*out = v;
	return 1;
}

/* queues/qK/irq of ssdtune controller @ssdt: in @q[irq index], the
 * queue serving each of @irqs (-1: none). */
static void queues_of(const char *ssdt, const int *irqs, int n, int *q)
{
	size_t pl = strlen(SSDTUNE_QUEUE_PREFIX);
	char p[PATH_MAX], buf[32];
	struct dirent *e;
	int i, irq, qid;
	DIR *d;

	for (i = 0; i < n; i++)
		q[i] = -1;
	if (!ssdt || !ssdt[0])
		return;
	d = opendir(ssdtdev_queue_path(p, sizeof(p), ssdt, -1, NULL));
	if (!d)
		return;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, SSDTUNE_QUEUE_PREFIX, pl) ||
		    !all_digits(e->d_name + pl))
			continue;
		qid = atoi(e->d_name + pl);
		if (sys_read(ssdtdev_queue_path(p, sizeof(p), ssdt, qid, QUEUE_FILE(irq)),
			     buf, sizeof(buf)))
			continue;
		irq = atoi(buf);
		for (i = 0; i < n; i++)
			if (irqs[i] == irq && q[i] < 0)
				q[i] = qid;
	}
	closedir(d);
}

int irqvec_list(const char *bdf, const char *ssdt,
		const struct irqtable *tab, struct irqvecs *out,
		struct lib_err *err)
{
	struct irqtable own = { 0 };
	int *irqs, *queue, n, i, r;

	out->v = NULL;
	out->n = 0;
	out->by_rank = false;
	if (!tab) {
		r = irqtable_read(&own, err);
		if (r)
			return r;
		tab = &own;
	}
	n = irq_numbers(bdf, &irqs, err);
	if (n <= 0) {
		irqtable_free(&own);
		return n;
	}
	out->v = calloc((size_t)n, sizeof(*out->v));
	queue = calloc((size_t)n, sizeof(*queue));
	if (!out->v || !queue) {
		free(out->v);
		out->v = NULL;
		free(queue);
		free(irqs);
		irqtable_free(&own);
		return lib_enomem(err);
	}
	queues_of(ssdt, irqs, n, queue);
	for (i = 0; i < n; i++) {
		struct irqvec *q = &out->v[i];
		const struct irqline *l = line_of(tab, irqs[i]);

		q->irq = irqs[i];
		q->entry = l ? irqvec_msi_entry(l->chip, l->hwirq, bdf) : -1;
		q->queue = queue[i];
		snprintf(q->name, sizeof(q->name), "%s", l ? l->name : "");
		q->vmd = l && irqvec_chip_vmd(l->chip);
		if (q->entry < 0)
			out->by_rank = true;
	}
	out->n = n;
	/* All entries from the kernel, or none: a partial picture could
	 * give two vectors the same identity. */
	if (out->by_rank)
		for (i = 0; i < n; i++)
			out->v[i].entry = i;
	else
		qsort(out->v, (size_t)n, sizeof(*out->v), by_entry);
	free(queue);
	free(irqs);
	irqtable_free(&own);
	return 0;
}

void irqvec_free(struct irqvecs *v)
{
	free(v->v);
	v->v = NULL;
	v->n = 0;
}

int irqvec_irq(const char *bdf, int entry)
{
	struct irqvecs v;
	int i, irq = -ENOENT;

	if (irqvec_list(bdf, NULL, NULL, &v, NULL))
		return -ENOENT;
	for (i = 0; i < v.n; i++)
		if (v.v[i].entry == entry)
			irq = v.v[i].irq;
	irqvec_free(&v);
	return irq;
}

long long irqvec_count_sum(const int *irqs, int n)
{
	unsigned long long total, sum = 0;
	char *line = NULL;
	int irq, i, seen = 0;
	size_t cap = 0;
	FILE *f = fopen(PROC_INTERRUPTS, "re");

	if (!f)
		return -1;
	while (seen < n && getline(&line, &cap, f) > 0) {
		if (irqvec_parse_total(line, &irq, &total))
			continue;
		for (i = 0; i < n; i++)
			if (irqs[i] == irq) {
				sum += total;
				seen++;
			}
	}
	free(line);
	fclose(f);
	return seen ? (long long)sum : -1;
}

long long irqvec_count(int irq)
{
	return irqvec_count_sum(&irq, 1);
}

bool irqvec_chip_vmd(const char *chip)
{
	return !strncmp(chip, "VMD-MSI", 7);
}

int irqvec_managed(int irq, int entry, const char *driver, bool vmd,
		   const char **why)
{
	char p[64];
	struct stat st;

	if (vmd) {
		*why = "remapped by Intel VMD, whose MSI chip refuses affinity (its bypass mode would not)";
		return 1;
	}
	snprintf(p, sizeof(p), "/proc/irq/%d/smp_affinity", irq);
	if (!stat(p, &st) && !(st.st_mode & 0222)) {
		*why = "smp_affinity is read-only (kernel-managed)";
		return 1;
	}
	if (!strcmp(driver, SSDTUNE_DRV_NAME)) {
		*why = "ssdtune allocates unmanaged vectors";
		return 0;
	}
	if (!strcmp(driver, "nvme")) {
		*why = entry == 0 ? "nvme: admin queue vector (not managed)" :
				    "nvme: I/O queue vectors are kernel-managed";
		return entry != 0;
	}
	*why = "unknown for this driver";
	return -1;
}
