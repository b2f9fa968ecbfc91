/* load/coretab.c - the trace a core can produce, from its build attributes:
 * the table of known cores (name, trace macrocell, ETMIDR) and the rules
 * by architecture for the others. Sources of each row: doc/inference.md. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <etmtrace/core.h>
#include <etmtrace/error.h>

#define V1 ETM_CORE_ETMV1
#define V3 ETM_CORE_ETMV3
#define PTM ETM_CORE_PTM

/* ETMIDR values (IHI 0014Q ETMIDR; bit 18 "32-bit Thumb traced as one
 * instruction" is set where the macrocell predates it: the decoder's one
 * model, etm_config_check()). */
#define IDR_ETM9 0x41041220u  /* CoreSight ETM9, ETMv3.2 (DDI 0315B) */
#define IDR_ETM11 0x41053211u /* ETM11RV, ETMv3.1 (DDI 0233B) */
#define IDR_A5 0x410CF250u    /* ETM-A5, ETMv3.5 (DDI 0435A) */
#define IDR_A8 0x410CF230u    /* ETM-A8, ETMv3.3 (IHI 0014Q Table 1.1) */
#define IDR_R5 0x4104F230u    /* ETM-R4/R5, ETMv3.3 (am243x snapshot) */
#define IDR_M3 0x4114F250u    /* ETM-M3/M4, ETMv3.5, alt. branches (DDI 0337I) */
#define IDR_PFT10 0x411CF300u /* PTM-A9, PFT 1.0 */
#define IDR_PFT11 0x411CF312u /* PTM-A15, PFT 1.1 (TC2 snapshot) */

struct core_row {
	const char *name; /* Tag_CPU_name, lower case */
	const char *arch;
	unsigned protocols;
	uint32_t etmidr, ptmidr;
	int m_profile;
	const char *macrocell;
};

static const struct core_row core_rows[] = {
	{ "arm7tdmi", "ARMv4T", V1, 0, 0, 0, "ETM7, ETMv1" },
	{ "arm7tdmi-s", "ARMv4T", V1, 0, 0, 0, "ETM7, ETMv1" },
	{ "arm720t", "ARMv4T", V1, 0, 0, 0, "ETM7, ETMv1" },
	{ "arm920t", "ARMv4T", V1, 0, 0, 0, "ETM9, ETMv1" },
	{ "arm922t", "ARMv4T", V1, 0, 0, 0, "ETM9, ETMv1" },
	{ "arm926ej-s", "ARMv5TEJ", V1 | V3, IDR_ETM9, 0, 0,
	  "ETM9 (ETMv1) or CoreSight ETM9 (ETMv3.2)" },
	{ "arm946e-s", "ARMv5TE", V1 | V3, IDR_ETM9, 0, 0,
	  "ETM9 (ETMv1) or CoreSight ETM9 (ETMv3.2)" },
	{ "arm966e-s", "ARMv5TE", V1 | V3, IDR_ETM9, 0, 0,
	  "ETM9 (ETMv1) or CoreSight ETM9 (ETMv3.2)" },
	{ "arm1136j-s", "ARMv6", V3, IDR_ETM11, 0, 0, "ETM11, ETMv3.1" },
	{ "arm1136jf-s", "ARMv6", V3, IDR_ETM11, 0, 0, "ETM11, ETMv3.1" },
	{ "arm1156t2-s", "ARMv6T2", V3, IDR_ETM11, 0, 0, "ETM11, ETMv3.1" },
	{ "arm1156t2f-s", "ARMv6T2", V3, IDR_ETM11, 0, 0, "ETM11, ETMv3.1" },
	{ "arm1176jz-s", "ARMv6KZ", V3, IDR_ETM11, 0, 0, "ETM11, ETMv3.1" },
	{ "arm1176jzf-s", "ARMv6KZ", V3, IDR_ETM11, 0, 0, "ETM11, ETMv3.1" },
	{ "mpcore", "ARMv6K", V3, IDR_ETM11, 0, 0, "ETM11, ETMv3.1" },
	{ "cortex-a5", "ARMv7-A", V3, IDR_A5, 0, 0, "ETM-A5, ETMv3.5" },
	{ "cortex-a7", "ARMv7-A", V3, IDR_A5, 0, 0, "ETM-A7, ETMv3.5" },
	{ "cortex-a8", "ARMv7-A", V3, IDR_A8, 0, 0, "ETM-A8, ETMv3.3" },
	{ "cortex-a9", "ARMv7-A", PTM, 0, IDR_PFT10, 0, "PTM-A9, PFT 1.0" },
	{ "cortex-a12", "ARMv7-A", PTM, 0, IDR_PFT11, 0, "PTM, PFT 1.1" },
	{ "cortex-a15", "ARMv7-A", PTM, 0, IDR_PFT11, 0, "PTM-A15, PFT 1.1" },
	{ "cortex-a17", "ARMv7-A", PTM, 0, IDR_PFT11, 0, "PTM, PFT 1.1" },
	{ "cortex-r4", "ARMv7-R", V3, IDR_R5, 0, 0, "ETM-R4, ETMv3.3" },
	{ "cortex-r5", "ARMv7-R", V3, IDR_R5, 0, 0, "ETM-R5, ETMv3.3" },
	{ "cortex-m3", "ARMv7-M", V3, IDR_M3, 0, 1, "ETM-M3, ETMv3.5" },
	{ "cortex-m4", "ARMv7E-M", V3, IDR_M3, 0, 1, "ETM-M4, ETMv3.5" },
};

/* The row of core @name (case-insensitive; a trailing "f", as in
 * "cortex-r4f", names the same core), or NULL. */
static const struct core_row *core_find(const char *name)
{
	char low[64];
	size_t i, n = strlen(name);

	if (!n || n >= sizeof(low))
		return NULL;
	for (i = 0; i <= n; i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	for (i = 0; i < sizeof(core_rows) / sizeof(core_rows[0]); i++)
		if (!strcmp(low, core_rows[i].name))
			return &core_rows[i];
	if (low[n - 1] == 'f') {
		low[n - 1] = 0;
		return core_find(low);
	}
	return NULL;
}

/* The rules by architecture (Tag_CPU_arch @arch, profile @prof) for a
 * core not in the table: as a row, NULL for a core whose trace etmtrace
 * does not decode (ARMv8 and later: ETMv4) or when nothing is known. */
static const struct core_row *core_by_arch(int arch, int prof)
{
	static const struct core_row rules[] = {
		{ "", "ARMv4T", V1, 0, 0, 0, "ETM7/ETM9, ETMv1" },
		{ "", "ARMv5", V1 | V3, IDR_ETM9, 0, 0,
		  "ETM9 (ETMv1) or CoreSight ETM9 (ETMv3.2)" },
		{ "", "ARMv6", V3, IDR_ETM11, 0, 0, "ETM11, ETMv3.1" },
		{ "", "ARMv7-A", V3 | PTM, IDR_A5, IDR_PFT11, 0,
		  "ETMv3.5 or PTM (PFT 1.1)" },
		{ "", "ARMv7-R", V3, IDR_R5, 0, 0, "ETMv3.3" },
		{ "", "ARMv7-M", V3, IDR_M3, 0, 1, "ETMv3.5" },
		{ "", "ARMv7", V3 | PTM, IDR_A5, IDR_PFT11, 0,
		  "ETMv3.5 or PTM (PFT 1.1)" },
		{ "", "ARMv6-M", V3, IDR_M3, 0, 1, "ETMv3.5" },
	};

	if (arch >= 1 && arch <= 2)
		return &rules[0];
	if (arch >= 3 && arch <= 5)
		return &rules[1];
	if (arch >= 6 && arch <= 9)
		return &rules[2];
	if (arch == 10)
		return prof == 'A' ? &rules[3] :
		       prof == 'R' ? &rules[4] :
		       prof == 'M' ? &rules[5] :
				     &rules[6];
	if (arch == 11 || arch == 12)
		return &rules[7];
	if (arch == 13)
		return &rules[5];
	return NULL;
}

/* Whether the core has 32-bit Thumb instructions: Tag_THUMB_ISA_use, or
 * when it says "as the architecture" (3) or nothing, ARMv6T2 and later. */
static int core_thumb2(const struct etm_arm_attrs *a)
{
	if (a->thumb_isa >= 0 && a->thumb_isa <= 2)
		return a->thumb_isa == 2;
	if (a->cpu_arch < 0)
		return -1;
	return a->cpu_arch >= 8 && a->cpu_arch != 9 && a->cpu_arch != 11;
}

int etm_core_trace_from_attrs(const struct etm_arm_attrs *a,
			      struct etm_core_trace *t)
{
	const struct core_row *r;

	if (!a || !t)
		return -etme_invalid;
	memset(t, 0, sizeof(*t));
	t->size = sizeof(*t);
	t->thumb2 = -1;
	if (!a->found)
		return 0;
	t->thumb2 = core_thumb2(a);
	r = core_find(a->cpu_name);
	t->known = r != NULL;
	if (!r)
		r = core_by_arch(a->cpu_arch, a->profile);
	if (!r) {
		snprintf(t->what, sizeof(t->what), "%.40s%sTag_CPU_arch %d: "
						   "no ETMv1/ETMv3/PTM known",
			 a->cpu_name, a->cpu_name[0] ? ", " : "", a->cpu_arch);
		return 0;
	}
	t->protocols = r->protocols;
	t->etmidr = r->etmidr;
	t->ptmidr = r->ptmidr;
	t->m_profile = r->m_profile;
	snprintf(t->what, sizeof(t->what), "%.30s%s%s%s: %s", a->cpu_name,
		 a->cpu_name[0] ? " (" : "", r->arch, a->cpu_name[0] ? ")" : "",
		 r->macrocell);
	return 0;
}
