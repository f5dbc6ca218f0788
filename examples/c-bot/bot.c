/*
 * An example bot in C with no SDK and no library: it speaks PROTOCOL.md's stdio transport itself (one JSON
 * message per line on stdin and stdout) and solves two puzzles optimally:
 * - swaps: every piece is swapped with the piece on its home cell, n minus the number of cycles swaps,
 *   streamed 100,000 pairs to a chunk;
 * - sliding boards of up to 3x3: IDA* on the Manhattan distance (an 8-puzzle takes well under a millisecond).
 *
 *   gcc -O2 -o examples/c-bot/bot examples/c-bot/bot.c
 *   npx arena bot add c-swaps --cmd ./bot --cwd examples/c-bot --stdio
 *   npx arena bot check c-swaps
 *   npx arena match c-swaps swaps-greedy --puzzle swaps --size 10
 *
 * (from the checkout; in a folder of its own outside it, as docs/writing-bots.md shows).
 *
 * Reading JSON: a message is an object whose fields come in any order and may be followed by fields a later
 * protocol version adds, so the reader walks the object key by key and skips every value it does not need.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 100000

/* Skips whitespace. */
static const char *ws(const char *p) {
  while (*p && isspace((unsigned char)*p)) p++;
  return p;
}

/* At a '"': returns the character after the closing quote; *start and *len give the raw contents. */
static const char *string(const char *p, const char **start, size_t *len) {
  const char *s = ++p;
  while (*p && *p != '"') p += (*p == '\\' && p[1]) ? 2 : 1;
  if (start) *start = s;
  if (len) *len = (size_t)(p - s);
  return *p ? p + 1 : p;
}

/* Skips any JSON value; returns what follows it. */
static const char *skip(const char *p) {
  p = ws(p);
  if (*p == '"') return string(p, NULL, NULL);
  if (*p == '{' || *p == '[') {
    int depth = 0;
    do {
      if (*p == '"') { p = string(p, NULL, NULL); continue; }
      if (*p == '{' || *p == '[') depth++;
      if (*p == '}' || *p == ']') depth--;
      p++;
    } while (*p && depth > 0);
    return p;
  }
  while (*p && *p != ',' && *p != '}' && *p != ']') p++; /* number, true, false, null */
  return p;
}

/* Calls field(key, key_len, value, ctx) for each member of the object at p. */
static void members(const char *p, void (*field)(const char *, size_t, const char *, void *), void *ctx) {
  p = ws(p);
  if (*p != '{') return;
  p = ws(p + 1);
  while (*p == '"') {
    const char *key;
    size_t klen;
    p = ws(string(p, &key, &klen));
    if (*p != ':') return;
    const char *value = ws(p + 1);
    field(key, klen, value, ctx);
    p = ws(skip(value));
    if (*p == ',') p = ws(p + 1);
  }
}

static int is(const char *key, size_t len, const char *name) { return len == strlen(name) && memcmp(key, name, len) == 0; }

struct message { const char *type, *id, *puzzle; size_t type_len, id_len; };
struct puzzle { const char *kind, *tiles; size_t kind_len; long rows, cols; };

static void message_field(const char *key, size_t len, const char *value, void *ctx) {
  struct message *m = ctx;
  if (is(key, len, "type") && *value == '"') string(value, &m->type, &m->type_len);
  else if (is(key, len, "id") && *value == '"') string(value, &m->id, &m->id_len);
  else if (is(key, len, "puzzle")) m->puzzle = value;
}

static void puzzle_field(const char *key, size_t len, const char *value, void *ctx) {
  struct puzzle *p = ctx;
  if (is(key, len, "kind") && *value == '"') string(value, &p->kind, &p->kind_len);
  else if (is(key, len, "tiles")) p->tiles = value;
  else if (is(key, len, "rows")) p->rows = strtol(value, NULL, 10);
  else if (is(key, len, "cols")) p->cols = strtol(value, NULL, 10);
}

/* Reads a JSON array of at most `cap` integers into t; returns how many (cap + 1 when there are more). */
static size_t read_ints(const char *p, long *t, size_t cap) {
  size_t n = 0;
  p = ws(p) + 1; /* after the '[' */
  for (;;) {
    p = ws(p);
    char *end;
    long v = strtol(p, &end, 10);
    if (end == p) return n;
    if (n == cap) return cap + 1;
    t[n++] = v;
    p = ws(end);
    if (*p == ',') p++;
  }
}

/* The sliding board being searched: cells, shape, and the path of blank moves so far. */
static int board[9], rows_, cols_, path[64];
static const char LETTER[4] = {'U', 'D', 'L', 'R'};
static const int DR[4] = {-1, 1, 0, 0}, DC[4] = {0, 0, -1, 1};

/* Sum over tiles of the distance to their home cell (tile t belongs at cell t - 1). */
static int manhattan(void) {
  int h = 0;
  for (int i = 0; i < rows_ * cols_; i++) {
    if (board[i] == 0) continue;
    int home = board[i] - 1;
    h += abs(i / cols_ - home / cols_) + abs(i % cols_ - home % cols_);
  }
  return h;
}

/* Depth-first search below `bound`; returns -1 when solved, else the smallest f that exceeded the bound. */
static int ida(int blank, int g, int h, int bound, int last) {
  int f = g + h;
  if (f > bound) return f;
  if (h == 0) return -1;
  int next = 1 << 30;
  for (int d = 0; d < 4; d++) {
    if (last >= 0 && (d ^ 1) == last) continue; /* never undo the previous move (U/D and L/R are 0/1, 2/3) */
    int r = blank / cols_ + DR[d], c = blank % cols_ + DC[d];
    if (r < 0 || r >= rows_ || c < 0 || c >= cols_) continue;
    int to = r * cols_ + c, tile = board[to], home = tile - 1;
    /* The tile moves from `to` into the blank's cell: only its own distance changes. */
    int before = abs(r - home / cols_) + abs(c - home % cols_);
    int after = abs(blank / cols_ - home / cols_) + abs(blank % cols_ - home % cols_);
    board[blank] = tile, board[to] = 0, path[g] = d;
    int t = ida(to, g + 1, h - before + after, bound, d);
    board[to] = tile, board[blank] = 0;
    if (t < 0) return -1;
    if (t < next) next = t;
  }
  return next;
}

/* Answers a sliding board of up to 9 cells with an optimal sequence of blank moves. */
static void solve_sliding(const char *id, size_t id_len, const struct puzzle *p) {
  long t[10];
  size_t n = read_ints(p->tiles, t, 9);
  rows_ = (int)p->rows, cols_ = (int)p->cols;
  int blank = -1;
  if (n != (size_t)(rows_ * cols_) || rows_ < 1 || cols_ < 1 || n > 9) {
    printf("{\"type\":\"unsupported\",\"id\":\"%.*s\",\"reason\":\"sliding boards of up to 3x3 only\"}\n", (int)id_len, id);
    fflush(stdout);
    return;
  }
  for (size_t i = 0; i < n; i++) {
    board[i] = (int)t[i];
    if (t[i] == 0) blank = (int)i;
  }
  int h = manhattan(), bound = h, found = 0;
  while (bound < 64) {
    int r = ida(blank, 0, h, bound, -1);
    if (r < 0) { found = 1; break; }
    bound = r;
  }
  if (!found) { /* never for a scramble the referee sends: it checks every board is solvable */
    printf("{\"type\":\"give-up\",\"id\":\"%.*s\",\"reason\":\"no solution within 63 moves\"}\n", (int)id_len, id);
    fflush(stdout);
    return;
  }
  printf("{\"type\":\"moves\",\"id\":\"%.*s\",\"moves\":\"", (int)id_len, id);
  for (int i = 0; i < bound; i++) putchar(LETTER[path[i]]);
  printf("\",\"final\":true,\"info\":{\"optimal\":true}}\n");
  fflush(stdout);
}

/* Sends the swaps that sort `tiles` (pieces 1..n), in chunks; the id is echoed exactly as it came. */
static void solve_swaps(const char *id, size_t id_len, const char *tiles) {
  size_t n = 0, cap = 1024;
  long *t = malloc(cap * sizeof *t);
  const char *p = ws(tiles) + 1; /* after the '[' */
  for (;;) {
    p = ws(p);
    char *end;
    long v = strtol(p, &end, 10);
    if (end == p) break; /* the closing ']' */
    if (n == cap) t = realloc(t, (cap *= 2) * sizeof *t);
    t[n++] = v;
    p = ws(end);
    if (*p == ',') p++;
  }
  size_t *where = malloc((n + 1) * sizeof *where);
  for (size_t i = 0; i < n; i++) {
    if (t[i] < 1 || t[i] > (long)n) { /* never from the referee, which sends permutations of 1..n */
      printf("{\"type\":\"give-up\",\"id\":\"%.*s\",\"reason\":\"not a permutation\"}\n", (int)id_len, id);
      fflush(stdout);
      free(t), free(where);
      return;
    }
    where[t[i]] = i;
  }
  size_t in_chunk = 0;
  for (size_t i = 0; i < n; i++) {
    if (t[i] == (long)(i + 1)) continue;
    long a = t[i], b = (long)(i + 1);
    size_t j = where[b];
    t[i] = b, t[j] = a, where[a] = j, where[b] = i;
    if (in_chunk == 0) printf("{\"type\":\"moves\",\"id\":\"%.*s\",\"final\":false,\"moves\":[", (int)id_len, id);
    printf("%s[%ld,%ld]", in_chunk ? "," : "", a, b);
    if (++in_chunk == CHUNK) printf("]}\n"), in_chunk = 0;
  }
  if (in_chunk) printf("]}\n");
  printf("{\"type\":\"moves\",\"id\":\"%.*s\",\"moves\":[],\"final\":true,\"info\":{\"optimal\":true}}\n", (int)id_len, id);
  fflush(stdout); /* stdout is a pipe: flush every answer */
  free(t), free(where);
}

int main(void) {
  printf("{\"type\":\"hello\",\"protocol\":2,\"name\":\"c-bot\",\"version\":\"1.1\",\"capabilities\":[{\"kind\":\"swaps\"},{\"kind\":\"sliding\",\"maxSize\":3}]}\n");
  fflush(stdout);
  char *line = NULL;
  size_t size = 0;
  /* Lines can be long: a solve carries the whole board (about 7 MB for 1000x1000); getline grows the buffer. */
  while (getline(&line, &size, stdin) != -1) {
    struct message m = {0};
    members(line, message_field, &m);
    if (!m.type) continue; /* an empty line, or not an object */
    if (is(m.type, m.type_len, "bye")) break;
    if (!is(m.type, m.type_len, "solve") || !m.id || !m.puzzle) continue; /* welcome, result, cancel: nothing to do */
    struct puzzle p = {0};
    members(m.puzzle, puzzle_field, &p);
    if (p.kind && is(p.kind, p.kind_len, "swaps") && p.tiles && *p.tiles == '[') {
      solve_swaps(m.id, m.id_len, p.tiles);
    } else if (p.kind && is(p.kind, p.kind_len, "sliding") && p.tiles && *p.tiles == '[') {
      solve_sliding(m.id, m.id_len, &p);
    } else {
      printf("{\"type\":\"unsupported\",\"id\":\"%.*s\",\"reason\":\"swaps and sliding up to 3x3 only\"}\n", (int)m.id_len, m.id);
      fflush(stdout);
    }
    fprintf(stderr, "c-bot: answered %.*s\n", (int)m.id_len, m.id); /* logs go to stderr */
  }
  free(line);
  return 0;
}
