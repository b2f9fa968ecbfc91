/* cli/live.c - live input: connect to a TCP server or open a FIFO, probe
 * the stream's head with a bounded wait, then hand out its bytes as they
 * come. SIGINT and SIGTERM are blocked except while waiting for input
 * (pselect()), so that they end the stream at a clean point: the decode
 * then finishes as at the end of a file (doc/live.md). */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "live.h"

/* Set by the handler; read between waits. A CLI process has one stream. */
static volatile sig_atomic_t live_signalled;

static void live_on_signal(int sig)
{
	(void)sig;
	live_signalled = 1;
}

int live_is_stream(const char *input)
{
	struct stat st;

	if (!strncmp(input, "tcp://", 6))
		return 1;
	if (!strcmp(input, "-"))
		return fstat(STDIN_FILENO, &st) == 0 && !S_ISREG(st.st_mode);
	return stat(input, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

/* tcp://HOST:PORT (HOST may be [IPv6]): a connected socket, or -1 with a
 * message printed. */
static int live_connect(const char *url)
{
	char host[256], *port;
	const char *h = url + 6;
	struct addrinfo hints, *res, *ai;
	int fd = -1, r;

	if (strlen(h) >= sizeof(host))
		goto bad;
	strcpy(host, h);
	port = strrchr(host, ':');
	if (!port || !port[1])
		goto bad;
	*port++ = 0;
	if (host[0] == '[' && port - host >= 3 && port[-2] == ']') {
		port[-2] = 0;
		memmove(host, host + 1, strlen(host));
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	r = getaddrinfo(host[0] ? host : "localhost", port, &hints, &res);
	if (r) {
		fprintf(stderr, "etmtrace: %s: %s\n", url, gai_strerror(r));
		return -1;
	}
	for (ai = res; ai && fd < 0; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
		if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
			r = errno;
			close(fd);
			fd = -1;
			errno = r;
		}
	}
	freeaddrinfo(res);
	if (fd < 0)
		fprintf(stderr, "etmtrace: %s: %s\n", url, strerror(errno));
	return fd;
bad:
	fprintf(stderr, "etmtrace: %s: expected tcp://HOST:PORT\n", url);
	return -1;
}

/* Wait until the stream has bytes, up to @ms milliseconds (-1: no limit),
 * with SIGINT/SIGTERM let through. Returns 1 ready, 0 timed out or
 * signalled, -1 error. */
static int live_wait(struct live *l, long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	fd_set rd;
	int r;

	for (;;) {
		if (live_signalled) {
			l->stopped = 1;
			return 0;
		}
		FD_ZERO(&rd);
		FD_SET(l->fd, &rd);
		r = pselect(l->fd + 1, &rd, NULL, NULL, ms < 0 ? NULL : &ts, &l->mask);
		if (r >= 0)
			return r > 0;
		if (errno != EINTR)
			return -1;
	}
}

ssize_t live_read(struct live *l, uint8_t *buf, size_t n)
{
	for (;;) {
		ssize_t k;
		int w = live_wait(l, -1);

		if (w < 0)
			break;
		if (!w)
			return 0;
		k = read(l->fd, buf, n);
		if (k >= 0)
			return k;
		if (errno == ECONNRESET) /* the peer went away: its end */
			return 0;
		if (errno != EINTR && errno != EAGAIN)
			break;
	}
	fprintf(stderr, "etmtrace: %s: %s\n", l->name, strerror(errno));
	return -1;
}

static long live_ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long)(t.tv_sec - t0->tv_sec) * 1000 +
	       (t.tv_nsec - t0->tv_nsec) / 1000000L;
}

/* The head: the first bytes, then more until LIVE_PROBE, the end, or
 * @wait_ms after the first. Returns 0 or 2 (printed). */
static int live_head(struct live *l, int wait_ms)
{
	struct timespec t0 = { 0, 0 };
	ssize_t k;
	long left;
	int w;

	l->head = malloc(LIVE_PROBE);
	if (!l->head) {
		fprintf(stderr, "etmtrace: out of memory\n");
		return 2;
	}
	while (l->nhead < LIVE_PROBE) {
		left = !l->nhead ? -1 : wait_ms - live_ms_since(&t0);
		if (l->nhead && left <= 0)
			break;
		w = live_wait(l, left);
		if (w < 0)
			goto err;
		if (!w) /* waited long enough, or signalled */
			break;
		k = read(l->fd, l->head + l->nhead, LIVE_PROBE - l->nhead);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (k < 0 && errno != ECONNRESET)
			goto err;
		if (k <= 0) {
			l->eof = 1;
			break;
		}
		if (!l->nhead)
			clock_gettime(CLOCK_MONOTONIC, &t0);
		l->nhead += (size_t)k;
	}
	return 0;
err:
	fprintf(stderr, "etmtrace: %s: %s\n", l->name, strerror(errno));
	return 2;
}

int live_open(struct live *l, const char *input, int wait_ms)
{
	struct sigaction sa;
	sigset_t block;

	memset(l, 0, sizeof(*l));
	l->name = input;
	l->fd = !strncmp(input, "tcp://", 6) ? live_connect(input) :
		!strcmp(input, "-")          ? STDIN_FILENO :
					       open(input, O_RDONLY);
	if (l->fd < 0) {
		if (strncmp(input, "tcp://", 6))
			fprintf(stderr, "etmtrace: %s: %s\n", input, strerror(errno));
		return 2;
	}
	if (l->fd >= FD_SETSIZE) {
		fprintf(stderr, "etmtrace: %s: too many open files\n", input);
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = live_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &l->old_int); /* no SA_RESTART: the wait returns */
	sigaction(SIGTERM, &sa, &l->old_term);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &l->mask);
	l->masked = 1;
	return live_head(l, wait_ms);
}

void live_close(struct live *l)
{
	if (l->fd > STDIN_FILENO)
		close(l->fd);
	l->fd = -1;
	free(l->head);
	l->head = NULL;
	if (l->masked) { /* a signal still pending acts as it would have */
		sigaction(SIGINT, &l->old_int, NULL);
		sigaction(SIGTERM, &l->old_term, NULL);
		sigprocmask(SIG_SETMASK, &l->mask, NULL);
	}
	l->masked = 0;
}
