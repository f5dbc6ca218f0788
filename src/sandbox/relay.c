/*
 * arena-relay PORT SOCKET -- COMMAND [ARGS...]
 *
 * Runs inside a bot's sandbox, whose network namespace has nothing but its own loopback. It listens on
 * 127.0.0.1:PORT there, then forks: the child forwards every connection made to that port to the referee's
 * unix socket SOCKET (the one channel bound into this sandbox), and the parent becomes COMMAND (the bot)
 * by exec. The port listens before the bot exists, so a bot that dials at once never races the relay. The
 * relay dies with the bot (PR_SET_PDEATHSIG), and the sandbox's pid namespace ends with the bot anyway.
 *
 * Bytes are copied as they come, both ways, through one bounded buffer per direction: the relay knows
 * nothing of WebSocket and holds at most MAX_CONNS * 2 * BUF bytes.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_CONNS 8
#define BUF 65536

struct pipe_half {
  char data[BUF];
  size_t start, end;
  int eof;     /* the reading side said EOF (or failed) */
  int shut;    /* the writing side has been shut down after the EOF was passed on */
};

struct conn {
  int fd[2];              /* 0: the bot's TCP socket, 1: the referee's unix socket */
  struct pipe_half half[2]; /* half[i]: bytes read from fd[i], to be written to fd[1 - i] */
};

static struct conn *conns[MAX_CONNS];

static void drop(int i) {
  close(conns[i]->fd[0]);
  close(conns[i]->fd[1]);
  free(conns[i]);
  conns[i] = NULL;
}

static int unix_connect(const char *path) {
  struct sockaddr_un a;
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  memset(&a, 0, sizeof a);
  a.sun_family = AF_UNIX;
  strncpy(a.sun_path, path, sizeof a.sun_path - 1);
  if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
    close(fd);
    return -1;
  }
  return fd;
}

static void accept_one(int listener, const char *path) {
  int tcp = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
  if (tcp < 0) return;
  int slot = -1;
  for (int i = 0; i < MAX_CONNS; i++)
    if (!conns[i]) { slot = i; break; }
  int ux = slot < 0 ? -1 : unix_connect(path);
  if (ux < 0) { close(tcp); return; }
  /* Every message is passed on as it comes: without this, Nagle's rule holds a small write back while the
     bot has not acknowledged the one before (its delayed ACK: 40 ms), so a `bye` right after a `result`
     reached the bot 40 ms late and every confined game ended that much later. */
  int one = 1;
  setsockopt(tcp, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  fcntl(ux, F_SETFL, fcntl(ux, F_GETFL) | O_NONBLOCK);
  struct conn *c = calloc(1, sizeof *c);
  if (!c) { close(tcp); close(ux); return; }
  c->fd[0] = tcp;
  c->fd[1] = ux;
  conns[slot] = c;
}

/* Moves bytes for connection i where poll said it may; returns 0 when the connection is over. */
static int pump(struct conn *c, const short *revents) {
  for (int i = 0; i < 2; i++) {
    struct pipe_half *h = &c->half[i];
    if (!h->eof && h->end < BUF && (revents[i] & (POLLIN | POLLHUP | POLLERR))) {
      ssize_t n = read(c->fd[i], h->data + h->end, BUF - h->end);
      if (n > 0) h->end += (size_t)n;
      else if (n == 0 || (errno != EAGAIN && errno != EINTR)) h->eof = 1;
    }
    int out = 1 - i;
    if (h->end > h->start) {
      ssize_t n = write(c->fd[out], h->data + h->start, h->end - h->start);
      if (n > 0) h->start += (size_t)n;
      else if (n < 0 && errno != EAGAIN && errno != EINTR) return 0;
      if (h->start == h->end) h->start = h->end = 0;
    }
    if (h->eof && h->end == h->start && !h->shut) {
      shutdown(c->fd[out], SHUT_WR);
      h->shut = 1;
    }
  }
  return !(c->half[0].shut && c->half[1].shut);
}

static void relay(int listener, const char *path) {
  struct pollfd p[1 + 2 * MAX_CONNS];
  for (;;) {
    int n = 0;
    p[n++] = (struct pollfd){ .fd = listener, .events = POLLIN };
    for (int i = 0; i < MAX_CONNS; i++) {
      struct conn *c = conns[i];
      for (int k = 0; k < 2; k++) {
        short ev = 0;
        if (c && !c->half[k].eof && c->half[k].end < BUF) ev |= POLLIN;
        if (c && c->half[1 - k].end > c->half[1 - k].start) ev |= POLLOUT;
        /* A socket with nothing to do is left out: a hung-up peer would otherwise wake poll at once, forever. */
        p[n++] = (struct pollfd){ .fd = c && ev ? c->fd[k] : -1, .events = ev };
      }
    }
    if (poll(p, (nfds_t)n, -1) < 0) {
      if (errno == EINTR) continue;
      _exit(1);
    }
    if (p[0].revents & POLLIN) accept_one(listener, path);
    for (int i = 0; i < MAX_CONNS; i++) {
      if (!conns[i]) continue;
      short rev[2] = { p[1 + 2 * i].revents, p[2 + 2 * i].revents };
      if ((rev[0] | rev[1]) && !pump(conns[i], rev)) drop(i);
    }
  }
}

int main(int argc, char **argv) {
  if (argc < 5 || strcmp(argv[3], "--") != 0) {
    fprintf(stderr, "usage: arena-relay PORT SOCKET -- COMMAND [ARGS...]\n");
    return 127;
  }
  int port = atoi(argv[1]);
  const char *path = argv[2];
  int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_port = htons((unsigned short)port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (listener < 0 || bind(listener, (struct sockaddr *)&a, sizeof a) < 0 || listen(listener, 16) < 0) {
    fprintf(stderr, "arena-relay: cannot listen on 127.0.0.1:%d: %s\n", port, strerror(errno));
    return 127;
  }
  pid_t bot = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "arena-relay: fork: %s\n", strerror(errno));
    return 127;
  }
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != bot) _exit(0);
    /* Hold none of the bot's stdio: the referee waits for those pipes to close. */
    int null = open("/dev/null", O_RDWR);
    for (int fd = 0; fd < 3; fd++) dup2(null, fd);
    if (null > 2) close(null);
    signal(SIGPIPE, SIG_IGN);
    relay(listener, path);
    _exit(0);
  }
  close(listener);
  execvp(argv[4], argv + 4);
  fprintf(stderr, "arena-relay: cannot run %s: %s\n", argv[4], strerror(errno));
  return 127;
}
