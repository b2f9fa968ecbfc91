/* tests/unit/test-capture_run.c - the library's one read loop
 * (etmtrace/caprun.h) gives the elements of the plain decode - the whole
 * buffer pushed into a decoder and drained, written here - whatever its
 * input: the buffer's file, the same bytes in memory, on standard input
 * (a pipe), as a stream in odd-sized reads after a head, read in small
 * chunks; item by item or in batches; on 1 and 2 threads (push form) and
 * through the pull form (etm_capture_next_elems(), etm_capture_next())
 * on 1 and 2 threads; and etm_capture_run_ops() on 2 threads with a
 * consumer per thread gives them in order. Input: a copy of TC2's snapshot whose CoreSight
 * buffer is its 32 KiB repeated 64 times (2 MiB: the runner cuts it). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <etmtrace/etmtrace.h>

#include "etest.h"

#define REPEAT 64

struct hsum {
	uint64_t h, n;
};

static void mix(uint64_t *h, uint64_t v)
{
	*h = (*h ^ v) * 1099511628211ull;
}

static void add(struct hsum *s, const struct etm_elem *e)
{
	mix(&s->h, e->offset);
	mix(&s->h, (uint64_t)e->kind << 8 | e->id);
	mix(&s->h, e->start);
	mix(&s->h, e->end);
	mix(&s->h, (uint64_t)e->isa << 32 | e->ninsn);
	mix(&s->h, e->addr);
	mix(&s->h, e->timestamp);
	mix(&s->h, (uint64_t)(unsigned)e->err);
	s->n++;
}

static int sink_item(void *ctx, const struct etm_item *it)
{
	if (it->kind == etm_item_elem)
		add(ctx, &it->elem);
	return 0;
}

static int sink_elems(void *ctx, const struct etm_elem *els, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		add(ctx, &els[i]);
	return 0;
}

static char dir[4096];
static uint8_t *data;
static size_t ndata;

static int copy_file(const char *from, const char *to, int times)
{
	FILE *f = fopen(from, "rb"), *g = fopen(to, "wb");
	char buf[65536];
	size_t n;
	int k, ok = f && g;

	for (k = 0; ok && k < times; k++) {
		rewind(f);
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			ok &= fwrite(buf, 1, n, g) == n;
	}
	if (f)
		fclose(f);
	if (g)
		ok &= fclose(g) == 0;
	return ok ? 0 : -1;
}

/* The snapshot copy with its trace buffer repeated, and its bytes. */
static int make_snapshot(void)
{
	static const char *const files[] = {
		"cpu_0.ini", "cpu_1.ini", "cpu_2.ini", "cpu_3.ini", "cpu_4.ini",
		"device_5.ini", "device_6.ini", "device_7.ini", "device_8.ini",
		"device_9.ini", "device_10.ini", "kernel_dump.bin",
		"snapshot.ini", "trace.ini", "cstrace.bin", NULL
	};
	const char *sh = getenv("ETM_SHARED");
	char from[4200], to[4200];
	FILE *f;
	int i;

	snprintf(dir, sizeof(dir), "%s/etm-caprun-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	for (i = 0; files[i]; i++) {
		snprintf(from, sizeof(from), "%s/snapshots/TC2/%s",
			 sh ? sh : ETM_TESTDATA, files[i]);
		snprintf(to, sizeof(to), "%s/%s", dir, files[i]);
		if (copy_file(from, to, files[i + 1] ? 1 : REPEAT) < 0)
			return -1;
	}
	f = fopen(to, "rb");
	data = malloc((size_t)32768 * REPEAT);
	ndata = f && data ? fread(data, 1, (size_t)32768 * REPEAT, f) : 0;
	if (f)
		fclose(f);
	return ndata == (size_t)32768 * REPEAT ? 0 : -1;
}

static struct etm_capture *open_cap(void)
{
	struct etm_capture *cap = NULL;
	char err[256];

	if (etm_capture_open(&cap, dir, NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "open: %s\n", err);
		return NULL;
	}
	return cap;
}

/* The reference: the buffer's bytes pushed whole, then drained. */
static struct hsum reference(void)
{
	struct etm_capture *cap = open_cap();
	struct hsum s = { 1469598103934665603ull, 0 };
	struct etm_decoder *d = cap ? etm_capture_buffer(cap, 0)->dec : NULL;
	struct etm_item it;

	if (d) {
		etm_decoder_push(d, data, ndata);
		etm_decoder_finish(d);
		while (etm_decoder_next(d, &it, sizeof(it)) == 0)
			sink_item(&s, &it);
	}
	etm_capture_free(cap);
	return s;
}

static struct hsum ref;

/* One push-form run with @ro's input, @jobs and @batch: its elements. */
static struct hsum run(struct etm_capture_run_opts *ro, int batch)
{
	struct etm_capture *cap = open_cap();
	struct etm_capture_sink sk = { .item = sink_item };
	struct hsum s = { 1469598103934665603ull, 0 };
	uint64_t bytes = 0;
	char err[256] = "";

	ro->size = sizeof(*ro);
	ro->bytes = &bytes;
	ro->err = err;
	ro->errlen = sizeof(err);
	sk.elems = batch ? sink_elems : NULL;
	if (!cap || etm_capture_run(cap, ro, &sk, &s) != 0 || bytes != ndata) {
		fprintf(stderr, "run: %s (%llu bytes)\n", err,
			(unsigned long long)bytes);
		s.n = 0;
	}
	etm_capture_free(cap);
	return s;
}

static void file_input(void)
{
	struct etm_capture_run_opts ro = { 0 };
	struct hsum s;

	ref = reference();
	ET_CHECK(ref.n > 100000);
	s = run(&ro, 0);
	ET_EQ(s.n, ref.n);
	ET_EQ(s.h, ref.h);
	s = run(&ro, 1);
	ET_EQ(s.h, ref.h);
	ro.chunk = 4099;
	s = run(&ro, 1);
	ET_EQ(s.h, ref.h);
}

static void jobs_two(void)
{
	struct etm_capture_run_opts ro = { .jobs = 2 };
	struct hsum s = run(&ro, 0);

	ET_EQ(s.n, ref.n);
	ET_EQ(s.h, ref.h);
	ro.jobs = 3;
	s = run(&ro, 1); /* with threads the sink takes items, not batches */
	ET_EQ(s.h, ref.h);
}

static void memory_input(void)
{
	struct etm_capture_run_opts ro = { .mem = data, .nmem = ndata };
	struct hsum s = run(&ro, 1);

	ET_EQ(s.n, ref.n);
	ET_EQ(s.h, ref.h);
}

/* Standard input a pipe a child process writes the buffer into. */
static void stdin_input(void)
{
	struct etm_capture_run_opts ro = { .use_fd = 1, .fd = 0 };
	int p[2], saved = dup(0), st = 0;
	struct hsum s;
	pid_t pid;

	ET_CHECK(saved >= 0 && pipe(p) == 0);
	pid = fork();
	ET_CHECK(pid >= 0);
	if (pid == 0) {
		size_t off = 0;
		ssize_t k = 0;

		close(p[0]);
		while (off < ndata && (k = write(p[1], data + off, ndata - off)) > 0)
			off += (size_t)k;
		_exit(off == ndata ? 0 : 1);
	}
	close(p[1]);
	dup2(p[0], 0);
	close(p[0]);
	s = run(&ro, 1);
	dup2(saved, 0);
	close(saved);
	waitpid(pid, &st, 0);
	ET_EQ(WIFEXITED(st) && WEXITSTATUS(st) == 0, 1);
	ET_EQ(s.n, ref.n);
	ET_EQ(s.h, ref.h);
}

struct stream {
	size_t pos;
};

/* Reads of 777 bytes at most (a stream hands out what has arrived). */
static ssize_t stream_read(void *ctx, uint8_t *buf, size_t n)
{
	struct stream *st = ctx;
	size_t k = ndata - st->pos;

	k = k < n ? k : n;
	k = k < 777 ? k : 777;
	memcpy(buf, data + st->pos, k);
	st->pos += k;
	return (ssize_t)k;
}

static void stream_input(void)
{
	struct stream st = { 5000 };
	struct etm_capture_run_opts ro = { .read = stream_read,
					   .read_ctx = &st,
					   .head = data,
					   .nhead = 5000 };
	struct hsum s = run(&ro, 1);

	ET_EQ(s.n, ref.n);
	ET_EQ(s.h, ref.h);
}

/* The pull form: batches of 100 (of the decoder's, or of the thread's
 * ring), on 1 and 2 threads; and one item at a time. */
static struct hsum pull(unsigned jobs, int items)
{
	struct etm_capture *cap = open_cap();
	struct hsum s = { 1469598103934665603ull, 0 };
	const struct etm_elem *els;
	struct etm_item it;
	size_t i, buffer = 9;
	int n;

	if (!cap || etm_capture_set_jobs(cap, jobs) != 0)
		return s;
	if (items) {
		while ((n = etm_capture_next(cap, &it, sizeof(it))) == 0)
			sink_item(&s, &it);
	} else {
		while ((n = etm_capture_next_elems(cap, &els, 100, &buffer)) > 0)
			for (i = 0; i < (size_t)n && buffer == 0; i++)
				add(&s, &els[i]);
	}
	if (n != -etme_eos)
		s.n = 0;
	etm_capture_free(cap);
	return s;
}

static void pull_form(void)
{
	struct hsum s = pull(1, 0);

	ET_EQ(s.n, ref.n);
	ET_EQ(s.h, ref.h);
	s = pull(2, 0);
	ET_EQ(s.n, ref.n);
	ET_EQ(s.h, ref.h);
	s = pull(1, 1);
	ET_EQ(s.h, ref.h);
}

/* etm_capture_run_ops(): a consumer per worker whose pieces are the
 * hashes of their elements, emitted in input order into one list. */
struct hlist {
	uint64_t *h;
	size_t n, cap;
};

static void *ops_open(void *ctx)
{
	(void)ctx;
	return calloc(1, sizeof(struct hlist));
}

static int ops_elems(void *state, const struct etm_elem *els, size_t n)
{
	struct hlist *l = state;
	struct hsum one;
	size_t i;

	for (i = 0; i < n; i++) {
		if (l->n == l->cap) {
			uint64_t *h = realloc(l->h, (l->cap * 2 + 64) * sizeof(*h));

			if (!h)
				return -1;
			l->h = h;
			l->cap = l->cap * 2 + 64;
		}
		one.h = 1469598103934665603ull;
		one.n = 0;
		add(&one, &els[i]);
		l->h[l->n++] = one.h;
	}
	return 0;
}

static int ops_item(void *state, const struct etm_item *it)
{
	return it->kind == etm_item_elem ? ops_elems(state, &it->elem, 1) : 0;
}

static int ops_cut(void *state, void **piece, size_t *bytes)
{
	struct hlist *l = state, *p = malloc(sizeof(*p));

	if (!p)
		return -1;
	*p = *l;
	memset(l, 0, sizeof(*l));
	*piece = p;
	*bytes = p->n * sizeof(uint64_t);
	return 0;
}

static void ops_drop(void *ctx, void *piece)
{
	struct hlist *p = piece;

	(void)ctx;
	free(p->h);
	free(p);
}

static int ops_emit(void *ctx, void *piece)
{
	struct hsum *s = ctx;
	struct hlist *p = piece;
	size_t i;

	for (i = 0; i < p->n; i++) { /* an ordered hash of their hashes */
		mix(&s->h, p->h[i]);
		s->n++;
	}
	ops_drop(NULL, piece);
	return 0;
}

static void ops_close(void *state)
{
	ops_drop(NULL, state);
}

static void run_ops(void)
{
	const struct etm_run_ops ops = { .open = ops_open, .item = ops_item, .cut = ops_cut, .emit = ops_emit, .drop = ops_drop, .close = ops_close, .elems = ops_elems };
	struct etm_capture_run_opts ro = { .size = sizeof(ro), .jobs = 2 };
	struct etm_capture *cap = open_cap(), *cap2 = open_cap();
	struct hsum s = { 1469598103934665603ull, 0 };
	struct hsum want = { 1469598103934665603ull, 0 };
	uint64_t bytes = 0;
	struct etm_item it;
	struct hsum one;

	ET_CHECK(cap && cap2);
	ro.bytes = &bytes;
	ET_EQ(etm_capture_run_ops(cap, 0, &ro, &ops, &s, NULL), 0);
	ET_EQ(bytes, ndata);
	/* the same order-dependent hash over the plain decode's elements */
	while (etm_capture_next(cap2, &it, sizeof(it)) == 0)
		if (it.kind == etm_item_elem) {
			one.h = 1469598103934665603ull;
			add(&one, &it.elem);
			mix(&want.h, one.h);
			want.n++;
		}
	ET_EQ(s.n, ref.n);
	ET_EQ(s.h, want.h);
	ro.chunk = 4096; /* not read whole: refused */
	ET_EQ(etm_capture_run_ops(cap, 0, &ro, &ops, &s, NULL), 2);
	etm_capture_free(cap);
	etm_capture_free(cap2);
}

/* The buffer as the parallel runs read it: the snapshot's trace file
 * whole (its bytes are the copy made above). */
static void file_range(void)
{
	struct etm_capture *cap = open_cap();
	struct etm_fd_range rg = { -1, 0 };
	uint8_t head[64];
	uint64_t size = 0;

	ET_CHECK(cap != NULL);
	ET_EQ(etm_capture_range(cap, 0, &rg, &size), 0);
	ET_EQ(size, ndata);
	ET_EQ(rg.base, 0);
	ET_EQ(etm_fd_read(&rg, 0, head, sizeof(head)), sizeof(head));
	ET_CHECK(!memcmp(head, data, sizeof(head)));
	ET_EQ(etm_fd_read(&rg, size - 8, head, sizeof(head)), 8); /* its end */
	close(rg.fd);
	ET_EQ(etm_capture_range(cap, 1, &rg, &size), -etme_invalid);
	etm_capture_free(cap);
}

/* Freeing a capture while its decode thread waits for the consumer. */
static void pull_abandoned(void)
{
	struct etm_capture *cap = open_cap();
	const struct etm_elem *els;

	ET_CHECK(cap != NULL);
	ET_EQ(etm_capture_set_jobs(cap, 2), 0);
	ET_CHECK(etm_capture_next_elems(cap, &els, 10, NULL) > 0);
	ET_EQ(etm_capture_set_jobs(cap, 1), -etme_invalid);
	etm_capture_free(cap);
}

int main(void)
{
	char cmd[4200];
	int r;

	if (make_snapshot() < 0) {
		fprintf(stderr, "cannot make the snapshot copy\n");
		return 1;
	}
	ETEST(file_input);
	ETEST(jobs_two);
	ETEST(memory_input);
	ETEST(stdin_input);
	ETEST(stream_input);
	ETEST(pull_form);
	ETEST(pull_abandoned);
	ETEST(run_ops);
	ETEST(file_range);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	r = system(cmd);
	(void)r;
	free(data);
	return etest_end();
}
