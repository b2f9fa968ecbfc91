/* common/clones.h - ETM_CLONES: a hot function compiled twice, for the
 * baseline x86-64 the build targets and for x86-64-v3 (AVX2, BMI1/2),
 * picked once at load time by the CPU (GCC function multiversioning through
 * an ifunc). The two versions compute the same; v3 copies elements with
 * 32-byte moves and shifts without the count in CL. Elsewhere: nothing. */
#ifndef ETM_COMMON_CLONES_H
#define ETM_COMMON_CLONES_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
	defined(__linux__) && __GNUC__ >= 12 && !defined(ETM_NO_CLONES)
#define ETM_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define ETM_CLONES
#endif

#endif
