/* tests/recovery/recover.c - etm-recover: the recovery measurement as a
 * tool. Prints, per protocol, input form and damage kind, the fraction of
 * instructions outside the damaged synchronisation period recovered
 * exactly, and the differences not announced by an error or gap element.
 * Usage: etm-recover [-p etmv3|ptm] [-f raw|formatted] [-n INSNS]
 *        [-t TRIALS] [-s SEED] [-v] [-V]
 * -V: damaged traces are decoded through the verified-output filter
 * (etmtrace/verify.h), which puts errors found later in front of the
 * instructions they concern. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recovery.h"

static int run(enum etm_protocol proto, int formatted, uint32_t ninsn,
	       unsigned trials, uint64_t seed, int verbose, int verify)
{
	struct rc_trace *t = rc_trace_alloc(proto, formatted, ninsn, seed);
	unsigned k, i;

	if (!t) {
		fprintf(stderr, "etm-recover: cannot build the trace\n");
		return 1;
	}
	rc_trace_set_verify(t, verify);
	printf("%s %s%s: %zu bytes, %llu instructions\n",
	       etm_protocol_name(proto), formatted ? "formatted" : "raw",
	       verify ? " (verified output)" : "",
	       rc_trace_size(t), (unsigned long long)rc_trace_insns(t));
	for (k = 0; k < rc_ndamage; k++) {
		struct rc_stats st;

		memset(&st, 0, sizeof(st));
		for (i = 0; i < trials; i++)
			if (rc_trial(t, (enum rc_damage)k, seed * 7919 + i + 1,
				     &st, verbose) < 0)
				break;
		if (!st.trials)
			continue;
		printf("  %-15s %4llu trials: outside %.4f%% (%llu/%llu), "
		       "inside kept %.1f%%, invented %llu, silent %llu in "
		       "%llu trials, never reported %llu\n",
		       rc_damage_name((enum rc_damage)k),
		       (unsigned long long)st.trials,
		       st.outside ? 100.0 * (double)st.recovered /
					    (double)st.outside :
				    100.0,
		       (unsigned long long)st.recovered,
		       (unsigned long long)st.outside,
		       st.inside ? 100.0 * (double)st.inside_kept /
					   (double)st.inside :
				   100.0,
		       (unsigned long long)st.invented,
		       (unsigned long long)st.silent,
		       (unsigned long long)st.silent_trials,
		       (unsigned long long)st.undetected);
	}
	rc_trace_free(t);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long ninsn = 200000, trials = 100;
	unsigned long long seed = 1;
	int c, verbose = 0, verify = 0, p, f, rc = 0, only = -1, fonly = -1;

	while ((c = getopt(argc, argv, "p:n:t:s:vVf:")) != -1) {
		switch (c) {
		case 'f':
			fonly = !strcmp(optarg, "formatted");
			break;
		case 'p':
			only = !strcmp(optarg, "ptm");
			break;
		case 'n':
			ninsn = strtoul(optarg, NULL, 0);
			break;
		case 't':
			trials = strtoul(optarg, NULL, 0);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'v':
			verbose = 1;
			break;
		case 'V':
			verify = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-p etmv3|ptm] [-n INSNS] "
					"[-t TRIALS] [-s SEED] [-v] [-V]\n",
				argv[0]);
			return 2;
		}
	}
	for (p = 0; p < 2; p++) {
		if (only >= 0 && only != p)
			continue;
		for (f = 0; f < 2; f++)
			if (fonly < 0 || fonly == f)
				rc |= run(p ? etm_proto_ptm :
					      etm_proto_etmv3,
					  f,
					  (uint32_t)ninsn, (unsigned)trials,
					  seed, verbose, verify);
	}
	return rc;
}
