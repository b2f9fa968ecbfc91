/* covout/covreport.c - etm_cov_report() (etmtrace/covreport.h): the
 * public entry of the coverage reports of covout/covout.h. */
#include <string.h>

#include <etmtrace/covreport.h>
#include <etmtrace/error.h>

#include "covout/covout.h"

int etm_cov_report(const struct etm_cov *cov, enum etm_cov_report kind,
		   const struct etm_cov_report_opts *ro)
{
	struct covout o;

	if (!cov || !ro || ro->size < sizeof(*ro) || !ro->write)
		return -etme_invalid;
	memset(&o, 0, sizeof(o));
	o.cov = cov;
	o.img = ro->img;
	o.sym = ro->sym;
	o.write = ro->write;
	o.write_ctx = ro->write_ctx;
	o.test_name = ro->test_name;
	o.dis = ro->dis;
	o.srcpath = ro->srcpath;
	switch (kind) {
	case etm_cov_report_ranges: return cov_write_ranges(&o);
	case etm_cov_report_lcov: return cov_write_lcov(&o);
	case etm_cov_report_insns: return cov_write_insns(&o);
	case etm_cov_report_listing: return cov_write_listing(&o);
	}
	return -etme_invalid;
}
