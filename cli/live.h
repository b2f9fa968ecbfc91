/* cli/live.h - live input: a trace stream read as it arrives (a TCP
 * server such as OpenOCD's `tpiu create ... -output :PORT` or orbuculum,
 * a FIFO, a socket, standard input that is not a regular file), its head
 * probed with a bounded wait (doc/live.md). */
#ifndef ETM_CLI_LIVE_H
#define ETM_CLI_LIVE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Bytes of a stream's head given to detection and inference, at most. */
#define LIVE_PROBE ((size_t)256 << 10)
/* Default wait for the head, from its first byte (--probe-wait MS). */
#define LIVE_PROBE_WAIT_MS 1000

struct live {
	int fd;        /* the stream, -1: none */
	uint8_t *head; /* its first bytes, as read by live_open() */
	size_t nhead;
	int eof;     /* the stream ended within the head */
	int stopped; /* SIGINT/SIGTERM ended it */
	const char *name;
	sigset_t mask;                      /* the signal mask before live_open() */
	int masked;                         /* SIGINT and SIGTERM blocked outside the waits */
	struct sigaction old_int, old_term; /* their handlers before */
};

/* Whether @input names a stream: tcp://HOST:PORT, a FIFO or socket, or
 * `-` when standard input is not a regular file. */
int live_is_stream(const char *input);
/* Connect to or open the stream @input, catch SIGINT and SIGTERM (they end
 * the stream), and read its head: until LIVE_PROBE bytes, the end of the
 * stream, or @wait_ms after its first byte. Returns 0, or 2 with a message
 * printed. */
int live_open(struct live *l, const char *input, int wait_ms);
/* The next bytes of the stream, as many as have come (up to @n), waiting
 * for at least one. Returns how many, 0 at the end of the stream (the
 * peer closed it, or a signal ended it), -1 on a read error (printed). */
ssize_t live_read(struct live *l, uint8_t *buf, size_t n);
/* Close the stream; the signals as they were before live_open(). */
void live_close(struct live *l);

#endif
