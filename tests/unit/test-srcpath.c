/* tests/unit/test-srcpath.c - finding source files (etmtrace/srcpath.h)
 * in a temporary tree made here, each case's answer derived by hand from
 * the rules of the header: substitution at directory boundaries only, '\'
 * as '/', drive letters matched ignoring case, the first matching rule
 * only, directories searched by the path's tails down to the file name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <etmtrace/error.h>
#include <etmtrace/srcpath.h>

#include "etest.h"

static char root[256];

static void touch(const char *rel)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	if (f) {
		fputs("int x;\n", f);
		fclose(f);
	}
}

static void dir(const char *rel)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	mkdir(p, 0700);
}

/* The tree: R/sdk/source/drivers/hw.h, R/src/main.c, R/flat/tasks.c,
 * R/rtos/FreeRTOS-Kernel/tasks.c, R/srcx/other.c. */
static int tree(void)
{
	snprintf(root, sizeof(root), "/tmp/etm-srcpath-%d", (int)getpid());
	if (mkdir(root, 0700) != 0)
		return -1;
	dir("sdk");
	dir("sdk/source");
	dir("sdk/source/drivers");
	dir("src");
	dir("flat");
	dir("rtos");
	dir("rtos/FreeRTOS-Kernel");
	dir("srcx");
	touch("sdk/source/drivers/hw.h");
	touch("src/main.c");
	touch("flat/tasks.c");
	touch("rtos/FreeRTOS-Kernel/tasks.c");
	touch("srcx/other.c");
	return 0;
}

/* Where @path is found, relative to the root ("" if not found). */
static const char *find(const struct etm_srcpath *sp, const char *path)
{
	static char out[600];
	size_t k = strlen(root);

	if (etm_srcpath_find(sp, path, out, sizeof(out)) != 0)
		return "";
	return !strncmp(out, root, k) && out[k] == '/' ? out + k + 1 : out;
}

static char *at(const char *rel)
{
	static char b[4][512];
	static int i;

	i = (i + 1) % 4;
	snprintf(b[i], sizeof(b[i]), "%s/%s", root, rel);
	return b[i];
}

static void rules(void)
{
	struct etm_srcpath *sp = etm_srcpath_alloc();

	ET_CHECK(sp != NULL);
	/* a Windows path: drive letter in another case, '\' and '/' mixed */
	ET_EQ(etm_srcpath_add_map(sp, "C:/ti/sdk_10/source", at("sdk/source")), 0);
	ET_CHECK(!strcmp(find(sp, "c:\\TI\\sdk_10\\source\\drivers/hw.h"),
			 "sdk/source/drivers/hw.h"));
	/* only at a directory boundary: "source2" is not under "source" */
	ET_CHECK(!strcmp(find(sp, "C:/ti/sdk_10/source2/drivers/hw.h"), ""));
	/* a rule without a drive letter is matched with its case */
	ET_EQ(etm_srcpath_add_map_arg(sp, "/home/ci/src=" /* OLD=NEW */), 0);
	ET_EQ(etm_srcpath_add_map(sp, "/home/ci", at("nothing")), 0);
	ET_EQ(etm_srcpath_add_map(sp, "/Home/ci/src", at("src")), 0);
	/* "/home/ci/src" is the first rule that matches: only it applies
	 * (to "" + "main.c" = "main.c", not here); the later rules never */
	ET_CHECK(!strcmp(find(sp, "/home/ci/src/main.c"), ""));
	ET_EQ(etm_srcpath_add_map_arg(sp, "no-equals-sign"), -etme_parse);
	ET_EQ(etm_srcpath_add_map(sp, "", "x"), -etme_invalid);
	etm_srcpath_free(sp);
	/* a rule's result not found: the directories are searched with it */
	sp = etm_srcpath_alloc();
	ET_EQ(etm_srcpath_add_map(sp, "/build", "/nonexistent/tree"), 0);
	ET_EQ(etm_srcpath_add_dir(sp, at("rtos")), 0);
	/* "/nonexistent/tree/FreeRTOS-Kernel/tasks.c" relative to rtos:
	 * tails "nonexistent/tree/...", "tree/...", "FreeRTOS-Kernel/tasks.c" */
	ET_CHECK(!strcmp(find(sp, "/build/FreeRTOS-Kernel/tasks.c"),
			 "rtos/FreeRTOS-Kernel/tasks.c"));
	etm_srcpath_free(sp);
}

static void dirs(void)
{
	struct etm_srcpath *sp = etm_srcpath_alloc();

	ET_CHECK(sp != NULL);
	/* no rules, no directories: only where the path says */
	ET_CHECK(!strcmp(find(NULL, at("src/main.c")), "src/main.c"));
	ET_CHECK(!strcmp(find(NULL, "FreeRTOS-Kernel/tasks.c"), ""));
	ET_EQ(etm_srcpath_add_dir(sp, at("flat")), 0);
	ET_EQ(etm_srcpath_add_dir(sp, at("rtos")), 0);
	/* flat first: its tails "FreeRTOS-Kernel/tasks.c" (no), "tasks.c"
	 * (yes) - the basename in the first directory wins over the full
	 * relative path in the second */
	ET_CHECK(!strcmp(find(sp, "FreeRTOS-Kernel/tasks.c"), "flat/tasks.c"));
	etm_srcpath_free(sp);
	sp = etm_srcpath_alloc();
	ET_EQ(etm_srcpath_add_dir(sp, at("rtos")), 0);
	ET_EQ(etm_srcpath_add_dir(sp, at("flat")), 0);
	ET_CHECK(!strcmp(find(sp, "FreeRTOS-Kernel/tasks.c"),
			 "rtos/FreeRTOS-Kernel/tasks.c"));
	/* drive letter, "..", '\' dropped or read as '/' */
	ET_CHECK(!strcmp(find(sp, "E:\\jenkins\\..\\FreeRTOS-Kernel\\tasks.c"),
			 "rtos/FreeRTOS-Kernel/tasks.c"));
	ET_CHECK(!strcmp(find(sp, "../src/nothing.c"), ""));
	ET_EQ(etm_srcpath_add_dir(sp, root), 0);
	/* "../src/main.c" under the root: ".." dropped, "src/main.c" */
	ET_CHECK(!strcmp(find(sp, "../src\\main.c"), "src/main.c"));
	/* a directory is not a file */
	ET_CHECK(!strcmp(find(sp, "/x/FreeRTOS-Kernel"), ""));
	{
		char small[8];

		ET_EQ(etm_srcpath_find(sp, "../src/main.c", small, sizeof(small)),
		      -etme_nomap);
		ET_EQ(etm_srcpath_find(sp, NULL, small, sizeof(small)), -etme_invalid);
	}
	etm_srcpath_free(sp);
	etm_srcpath_free(NULL);
}

int main(void)
{
	char cmd[300];
	int r;

	if (tree() != 0) {
		fprintf(stderr, "cannot make %s\n", root);
		return 1;
	}
	ETEST(rules);
	ETEST(dirs);
	r = etest_end();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	return r;
}
