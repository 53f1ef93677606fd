/* GreedyBot's swap gains for Symbiosis, in C: the same whole numbers as
 * cardtool/games/symbiosis/gains.py (SeatGains.gains), which is the readable reference.
 *
 * A Seat kernel holds one seat's static facts (the deck's cards as numbers, where each of the seat's
 * columns looks, which cards count the seat's pond or the River). `gains(ponds, river)` returns the
 * rows SeatGains.gains returns; `best(ponds, river)` returns the (River slot * 8 + pond slot) of every
 * swap with the best gain, River slot first, in the order GreedyBot lists its ties; `choose(ponds,
 * river, rng, swaps)` is GreedyBot.best_swap whole, drawing its random numbers from rng as it does.
 * `shuffle(cards, rng)` is the deal's random.Random.shuffle.
 *
 * Every figure is n or n^2 times an expectation, a whole number: the Python side checks, before it
 * builds a kernel, that no figure of the deck can reach 2^62, so int64 arithmetic here is exact.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define POND 8
#define MAX_FEATURES 64
#define MAX_RIVER 16
#define MAX_PLAYERS 64
#define RIVER_TARGET (-1)
#define FIXED (-1)

/* Bump with any change to what the kernel computes or takes: the Python side refuses another version. */
#define KERNEL_VERSION 3

static const int SLOT_COLUMN[POND] = {0, 1, 1, 2, 0, 1, 1, 2};

typedef struct {
    PyObject_HEAD
    int features, cards, players, river_size, seat;
    int targets[3];                /* per column (left, middle, right): a seat, or RIVER_TARGET */
    int coupled, coupled_slot[POND], coupled_sign[POND];
    int counting, *counting_slot, *counting_sign;  /* flat pond slots whose cards count this pond */
    int *animal, *season, *counted;
    int64_t *points, *own, *pair;  /* pair: cards x cards */
    int64_t total_features[MAX_FEATURES], total_weights[MAX_FEATURES];
    int64_t total_fixed, total_itself, total_count;
} Seat;

static void Seat_dealloc(Seat *self) {
    free(self->counting_slot);
    free(self->counting_sign);
    free(self->animal);
    free(self->season);
    free(self->counted);
    free(self->points);
    free(self->own);
    free(self->pair);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Reads a sequence of ints into out (length checked); -1 with an exception set on failure. */
static int read_ints(PyObject *seq, const char *what, Py_ssize_t want, int64_t *out) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) return -1;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    if (want >= 0 && size != want) {
        PyErr_Format(PyExc_ValueError, "%s: %zd values, expected %zd", what, size, want);
        Py_DECREF(fast);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < size; i++) {
        long long value = PyLong_AsLongLong(items[i]);
        if (value == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = value;
    }
    Py_DECREF(fast);
    return 0;
}

static int64_t cross(const Seat *s, int card, int other) {
    int feature = s->counted[card];
    if (feature == FIXED) return 0;
    return s->points[card] * ((s->animal[other] == feature) + (s->season[other] == feature));
}

/* Seat(animal, season, counted, points, copies, players, river_size, seat, targets, coupled, counting)
 * coupled: (slot, sign) pairs of this pond; counting: (flat pond slot, sign) pairs of every pond. */
static int Seat_init(Seat *self, PyObject *args, PyObject *kwds) {
    (void)kwds;
    PyObject *animal, *season, *counted, *points, *copies, *targets, *coupled, *counting;
    int players, river_size, seat;
    if (!PyArg_ParseTuple(args, "OOOOOiiiOOO", &animal, &season, &counted, &points, &copies, &players,
                          &river_size, &seat, &targets, &coupled, &counting))
        return -1;
    if (self->animal != NULL) {
        PyErr_SetString(PyExc_TypeError, "a Seat kernel is set up once");
        return -1;
    }
    Py_ssize_t cards = PySequence_Size(animal);
    if (cards < 0) return -1;
    if (players < 1 || players > MAX_PLAYERS || river_size < 1 || river_size > MAX_RIVER
        || seat < 0 || seat >= players) {
        PyErr_SetString(PyExc_ValueError, "seats or River out of the kernel's range");
        return -1;
    }
    self->cards = (int)cards;
    self->players = players;
    self->river_size = river_size;
    self->seat = seat;
    int64_t *buffer = malloc(sizeof(int64_t) * (5 * (size_t)cards + 2 * POND * (size_t)players + 8));
    self->animal = malloc(sizeof(int) * (cards + 1));
    self->season = malloc(sizeof(int) * (cards + 1));
    self->counted = malloc(sizeof(int) * (cards + 1));
    self->points = malloc(sizeof(int64_t) * (cards + 1));
    self->own = malloc(sizeof(int64_t) * (cards + 1));
    self->pair = malloc(sizeof(int64_t) * (cards * cards + 1));
    self->counting_slot = malloc(sizeof(int) * (POND * players + 1));
    self->counting_sign = malloc(sizeof(int) * (POND * players + 1));
    if (!buffer || !self->animal || !self->season || !self->counted || !self->points || !self->own
        || !self->pair || !self->counting_slot || !self->counting_sign) {
        free(buffer);
        PyErr_NoMemory();
        return -1;
    }
    int64_t *a = buffer, *b = buffer + cards, *c = buffer + 2 * cards, *copy = buffer + 3 * cards;
    if (read_ints(animal, "animal", cards, a) || read_ints(season, "season", cards, b)
        || read_ints(counted, "counted", cards, c) || read_ints(points, "points", cards, self->points)
        || read_ints(copies, "copies", cards, copy)) {
        free(buffer);
        return -1;
    }
    int features = 0;
    for (Py_ssize_t i = 0; i < cards; i++) {
        self->animal[i] = (int)a[i];
        self->season[i] = (int)b[i];
        self->counted[i] = (int)c[i];
        int top = (int)(a[i] > b[i] ? a[i] : b[i]);
        if (c[i] > top) top = (int)c[i];
        if (a[i] < 0 || b[i] < 0 || c[i] < FIXED || top >= MAX_FEATURES) {
            free(buffer);
            PyErr_SetString(PyExc_ValueError, "a card's feature is out of the kernel's range");
            return -1;
        }
        if (top + 1 > features) features = top + 1;
    }
    self->features = features;
    memset(self->total_features, 0, sizeof self->total_features);
    memset(self->total_weights, 0, sizeof self->total_weights);
    self->total_fixed = self->total_itself = self->total_count = 0;
    for (int i = 0; i < cards; i++) {
        for (int j = 0; j < cards; j++) self->pair[i * cards + j] = cross(self, i, j) + cross(self, j, i);
        self->own[i] = cross(self, i, i);
    }
    for (int i = 0; i < cards; i++) {
        int64_t k = copy[i];
        self->total_features[self->animal[i]] += k;
        self->total_features[self->season[i]] += k;
        if (self->counted[i] == FIXED) {
            self->total_fixed += k * self->points[i];
        } else {
            self->total_weights[self->counted[i]] += k * self->points[i];
            self->total_itself += k * self->own[i];
        }
        self->total_count += k;
    }
    if (read_ints(targets, "targets", 3, buffer)) {
        free(buffer);
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        if (buffer[i] < RIVER_TARGET || buffer[i] >= players) {
            free(buffer);
            PyErr_SetString(PyExc_ValueError, "a column target is out of range");
            return -1;
        }
        self->targets[i] = (int)buffer[i];
    }
    /* coupled and counting: sequences of (slot, sign) pairs */
    PyObject *lists[2] = {coupled, counting};
    for (int which = 0; which < 2; which++) {
        PyObject *fast = PySequence_Fast(lists[which], "pairs");
        if (fast == NULL) {
            free(buffer);
            return -1;
        }
        Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
        Py_ssize_t most = which == 0 ? POND : (Py_ssize_t)POND * players;
        if (size > most) {
            Py_DECREF(fast);
            free(buffer);
            PyErr_SetString(PyExc_ValueError, "too many slot pairs");
            return -1;
        }
        for (Py_ssize_t i = 0; i < size; i++) {
            int64_t pair[2];
            if (read_ints(PySequence_Fast_GET_ITEM(fast, i), "pair", 2, pair)) {
                Py_DECREF(fast);
                free(buffer);
                return -1;
            }
            if (pair[0] < 0 || pair[0] >= most || (pair[1] != 1 && pair[1] != -1)) {
                Py_DECREF(fast);
                free(buffer);
                PyErr_SetString(PyExc_ValueError, "a slot pair is out of range");
                return -1;
            }
            if (which == 0) {
                self->coupled_slot[i] = (int)pair[0];
                self->coupled_sign[i] = (int)pair[1];
            } else {
                self->counting_slot[i] = (int)pair[0];
                self->counting_sign[i] = (int)pair[1];
            }
        }
        if (which == 0) self->coupled = (int)size; else self->counting = (int)size;
        Py_DECREF(fast);
    }
    free(buffer);
    return 0;
}

/* Card numbers of a zone into out, -1 for None (face down); -1 with an exception set on bad input. */
static int read_zone(const Seat *s, PyObject *zone, Py_ssize_t want, int *out) {
    PyObject *fast = PySequence_Fast(zone, "a zone must be a sequence");
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != want) {
        PyErr_Format(PyExc_ValueError, "a zone of %zd cards, expected %zd", PySequence_Fast_GET_SIZE(fast), want);
        Py_DECREF(fast);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < want; i++) {
        if (items[i] == Py_None) {
            out[i] = -1;
            continue;
        }
        long card = PyLong_AsLong(items[i]);
        if (card == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (card < 0 || card >= s->cards) {
            PyErr_Format(PyExc_ValueError, "no card number %ld", card);
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)card;
    }
    Py_DECREF(fast);
    return 0;
}

/* The rows of gains, per River slot per pond slot, into rows[river_size * POND]. */
static void compute(const Seat *s, const int *ponds, const int *river, int64_t *rows) {
    const int F = s->features, R = s->river_size;
    const int *animal = s->animal, *season = s->season, *counted = s->counted;
    const int64_t *points = s->points;

    /* what the cards out of sight hold: the deck's totals less the cards in sight */
    int64_t unseen[MAX_FEATURES], weights[MAX_FEATURES];
    memcpy(unseen, s->total_features, sizeof(int64_t) * F);
    memcpy(weights, s->total_weights, sizeof(int64_t) * F);
    int64_t fixed = s->total_fixed, itself = s->total_itself, n = s->total_count;
    int river_hidden = 0;
    for (int zone = 0; zone < 2; zone++) {
        const int *cards = zone ? river : ponds;
        int size = zone ? R : s->players * POND;
        for (int i = 0; i < size; i++) {
            int card = cards[i];
            if (card < 0) {
                if (zone) river_hidden = 1;
                continue;
            }
            unseen[animal[card]]--;
            unseen[season[card]]--;
            if (counted[card] == FIXED) {
                fixed -= points[card];
            } else {
                weights[counted[card]] -= points[card];
                itself -= s->own[card];
            }
            n--;
        }
    }
    if (n == 0) n = 1;
    const int64_t nn = n * n;
    int64_t wq = 0;
    for (int f = 0; f < F; f++) wq += weights[f] * unseen[f];

    /* n times the points per feature of the cards counting this pond, less those counting the River */
    int64_t net[MAX_FEATURES];
    memset(net, 0, sizeof(int64_t) * F);
    for (int i = 0; i < s->counting; i++) {
        int card = ponds[s->counting_slot[i]];
        int sign = s->counting_sign[i];
        if (card < 0) {
            for (int f = 0; f < F; f++) net[f] += sign * weights[f];
        } else if (counted[card] != FIXED) {
            net[counted[card]] += sign * n * points[card];
        }
    }
    const int *mine = ponds + s->seat * POND;
    int unknown[3] = {river_hidden, river_hidden, river_hidden};
    for (int slot = 0; slot < POND; slot++)
        if (mine[slot] < 0) unknown[SLOT_COLUMN[slot]] = 1;
    int64_t shared = fixed * n;
    for (int f = 0; f < F; f++) shared += unseen[f] * net[f];

    /* per column: n times the expected feature counts of the pond it counts; a face-down card's value */
    int64_t expected[3][MAX_FEATURES], hidden[3] = {0, 0, 0};
    for (int column = 0; column < 3; column++) {
        int target = s->targets[column];
        const int *cards = target == RIVER_TARGET ? river : ponds + target * POND;
        int size = target == RIVER_TARGET ? R : POND, down = 0;
        int64_t *e = expected[column];
        memset(e, 0, sizeof(int64_t) * F);
        for (int i = 0; i < size; i++) {
            int card = cards[i];
            if (card < 0) {
                down++;
            } else {
                e[animal[card]] += n;
                e[season[card]] += n;
            }
        }
        if (down)
            for (int f = 0; f < F; f++) e[f] += down * unseen[f];
        if (unknown[column]) {
            int64_t value = shared;
            for (int f = 0; f < F; f++) value += weights[f] * e[f];
            hidden[column] = column == 1 ? value + itself * n - wq : value;
        }
    }

    int64_t given[POND];
    for (int slot = 0; slot < POND; slot++) {
        int card = mine[slot], column = SLOT_COLUMN[slot];
        if (card < 0) {
            given[slot] = hidden[column];
            continue;
        }
        int64_t value = n * (net[animal[card]] + net[season[card]]);
        given[slot] = counted[card] == FIXED ? value + points[card] * nn
                                             : value + n * points[card] * expected[column][counted[card]];
    }
    /* the slots whose column counts this pond or the River: a card's own cross, and with a face-down card */
    int64_t card_own[POND], card_hidden[POND];
    for (int i = 0; i < s->coupled; i++) {
        int card = mine[s->coupled_slot[i]];
        if (card < 0) {
            card_own[i] = wq;
            card_hidden[i] = 2 * wq;
        } else {
            card_own[i] = nn * s->own[card];
            card_hidden[i] = n * (weights[animal[card]] + weights[season[card]])
                             + (counted[card] == FIXED ? 0 : n * points[card] * unseen[counted[card]]);
        }
    }
    for (int r = 0; r < R; r++) {
        int taken = river[r];
        int64_t by[3];
        int64_t *row = rows + r * POND;
        if (taken < 0) {
            by[0] = hidden[0], by[1] = hidden[1], by[2] = hidden[2];
        } else {
            int64_t base = n * (net[animal[taken]] + net[season[taken]]);
            for (int column = 0; column < 3; column++)
                by[column] = counted[taken] == FIXED ? base + points[taken] * nn
                                                     : base + n * points[taken] * expected[column][counted[taken]];
        }
        for (int slot = 0; slot < POND; slot++) row[slot] = by[SLOT_COLUMN[slot]] - given[slot];
        if (taken < 0) {
            for (int i = 0; i < s->coupled; i++) {
                int64_t second = wq - card_hidden[i] + card_own[i];
                row[s->coupled_slot[i]] += s->coupled_sign[i] > 0 ? second : -second;
            }
        } else {
            int64_t taken_own = nn * s->own[taken];
            int64_t taken_hidden = n * (weights[animal[taken]] + weights[season[taken]])
                                   + (counted[taken] == FIXED ? 0 : n * points[taken] * unseen[counted[taken]]);
            const int64_t *pairs = s->pair + (int64_t)taken * s->cards;
            for (int i = 0; i < s->coupled; i++) {
                int card = mine[s->coupled_slot[i]];
                int64_t second = taken_own - (card < 0 ? taken_hidden : nn * pairs[card]) + card_own[i];
                row[s->coupled_slot[i]] += s->coupled_sign[i] > 0 ? second : -second;
            }
        }
    }
}

/* The zones read and the rows computed; -1 with an exception set on bad input. */
static int gains_of(const Seat *s, PyObject *ponds_arg, PyObject *river_arg, int *ponds, int *river,
                    int64_t *rows) {
    if (read_zone(s, ponds_arg, (Py_ssize_t)s->players * POND, ponds)) return -1;
    if (read_zone(s, river_arg, s->river_size, river)) return -1;
    compute(s, ponds, river, rows);
    return 0;
}

/* Indexes of every best gain, in order, into tied; returns how many. */
static int best_of(const Seat *s, const int64_t *rows, int *tied) {
    int total = s->river_size * POND, count = 0;
    int64_t best = rows[0];
    for (int i = 0; i < total; i++) {
        if (rows[i] > best) {
            best = rows[i];
            count = 0;
        }
        if (rows[i] == best) tied[count++] = i;
    }
    return count;
}

static PyObject *Seat_gains(Seat *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "gains(ponds, river)");
        return NULL;
    }
    int ponds[MAX_PLAYERS * POND], river[MAX_RIVER];
    int64_t rows[MAX_RIVER * POND];
    if (gains_of(self, args[0], args[1], ponds, river, rows)) return NULL;
    PyObject *result = PyList_New(self->river_size);
    if (result == NULL) return NULL;
    for (int r = 0; r < self->river_size; r++) {
        PyObject *row = PyList_New(POND);
        if (row == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        for (int slot = 0; slot < POND; slot++) {
            PyObject *value = PyLong_FromLongLong(rows[r * POND + slot]);
            if (value == NULL) {
                Py_DECREF(row);
                Py_DECREF(result);
                return NULL;
            }
            PyList_SET_ITEM(row, slot, value);
        }
        PyList_SET_ITEM(result, r, row);
    }
    return result;
}

static PyObject *Seat_best(Seat *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "best(ponds, river)");
        return NULL;
    }
    int ponds[MAX_PLAYERS * POND], river[MAX_RIVER], tied[MAX_RIVER * POND];
    int64_t rows[MAX_RIVER * POND];
    if (gains_of(self, args[0], args[1], ponds, river, rows)) return NULL;
    int count = best_of(self, rows, tied);
    PyObject *result = PyTuple_New(count);
    if (result == NULL) return NULL;
    for (int i = 0; i < count; i++) {
        PyObject *value = PyLong_FromLong(tied[i]);
        if (value == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, i, value);
    }
    return result;
}

static PyObject *GETRANDBITS;  /* the interned method name */

/* What random.Random.randrange(n) draws for n > 1 (Random._randbelow_with_getrandbits): getrandbits of
 * n's bit length until below n. The Python side passes only generators of type random.Random. */
static long below(PyObject *rng, long n) {
    int bits = 0;
    for (long m = n; m; m >>= 1) bits++;
    PyObject *count = PyLong_FromLong(bits);
    if (count == NULL) return -1;
    for (;;) {
        PyObject *drawn = PyObject_CallMethodOneArg(rng, GETRANDBITS, count);
        if (drawn == NULL) {
            Py_DECREF(count);
            return -1;
        }
        long value = PyLong_AsLong(drawn);
        Py_DECREF(drawn);
        if (value == -1 && PyErr_Occurred()) {
            Py_DECREF(count);
            return -1;
        }
        if (value < n) {
            Py_DECREF(count);
            return value;
        }
    }
}

/* choose(ponds, river, rng, swaps): GreedyBot.best_swap, drawing from rng as it does: a random best swap
 * (River slot first), then a random face-down slot to flip when the replaced card is face up. swaps is
 * the game's table of Swap objects by [River slot][pond slot][flip slot, or 8 for none]. None when the
 * seat's pond has no face-down card (GreedyBot then weighs the legal actions itself). */
static PyObject *Seat_choose(Seat *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "choose(ponds, river, rng, swaps)");
        return NULL;
    }
    PyObject *rng = args[2], *swaps = args[3];
    int ponds[MAX_PLAYERS * POND], river[MAX_RIVER], tied[MAX_RIVER * POND], hidden[POND], down = 0;
    if (read_zone(self, args[0], (Py_ssize_t)self->players * POND, ponds)) return NULL;
    if (read_zone(self, args[1], self->river_size, river)) return NULL;
    const int *mine = ponds + self->seat * POND;
    for (int slot = 0; slot < POND; slot++)
        if (mine[slot] < 0) hidden[down++] = slot;
    if (down == 0) Py_RETURN_NONE;
    int64_t rows[MAX_RIVER * POND];
    compute(self, ponds, river, rows);
    int count = best_of(self, rows, tied);
    long pick = count > 1 ? below(rng, count) : 0;
    if (pick < 0) return NULL;
    int r = tied[pick] / POND, pond = tied[pick] % POND, flip = POND;
    if (mine[pond] >= 0) {
        long which = down > 1 ? below(rng, down) : 0;
        if (which < 0) return NULL;
        flip = hidden[which];
    }
    /* swaps[r][pond][flip], each level checked: the table comes from Python */
    PyObject *level = swaps;
    int index[3] = {r, pond, flip};
    for (int depth = 0; depth < 3; depth++) {
        if (!PyTuple_Check(level) || PyTuple_GET_SIZE(level) <= index[depth]) {
            PyErr_SetString(PyExc_TypeError, "swaps must be the game's table of Swap tuples");
            return NULL;
        }
        level = PyTuple_GET_ITEM(level, index[depth]);
    }
    Py_INCREF(level);
    return level;
}

/* shuffle(cards, rng): random.Random.shuffle(cards) of a list, drawing the same numbers from rng (the
 * deal: Fisher-Yates from the end, each position swapped with one below(position + 1)). */
static PyObject *shuffle(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 2 || !PyList_CheckExact(args[0])) {
        PyErr_SetString(PyExc_TypeError, "shuffle(list, rng)");
        return NULL;
    }
    PyObject *cards = args[0], *rng = args[1];
    for (Py_ssize_t i = PyList_GET_SIZE(cards) - 1; i > 0; i--) {
        long j = below(rng, (long)i + 1);
        if (j < 0) return NULL;
        if (i >= PyList_GET_SIZE(cards)) {  /* getrandbits cannot touch the list, but be sure */
            PyErr_SetString(PyExc_RuntimeError, "the list changed size while shuffled");
            return NULL;
        }
        PyObject *item = PyList_GET_ITEM(cards, i);
        PyList_SET_ITEM(cards, i, PyList_GET_ITEM(cards, j));
        PyList_SET_ITEM(cards, j, item);
    }
    Py_RETURN_NONE;
}

static PyMethodDef module_methods[] = {
    {"shuffle", (PyCFunction)(void (*)(void))shuffle, METH_FASTCALL,
     "shuffle(cards, rng): random.Random.shuffle(cards), the same numbers drawn from rng."},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef Seat_methods[] = {
    {"choose", (PyCFunction)(void (*)(void))Seat_choose, METH_FASTCALL,
     "choose(ponds, river, rng, swaps): GreedyBot's swap, with its random draws; None without a face-down card."},
    {"gains", (PyCFunction)(void (*)(void))Seat_gains, METH_FASTCALL,
     "gains(ponds, river): per River slot, per pond slot, the swap's gain (as SeatGains.gains)."},
    {"best", (PyCFunction)(void (*)(void))Seat_best, METH_FASTCALL,
     "best(ponds, river): River slot * 8 + pond slot of every swap with the best gain, in order."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SeatType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cardtool_accel._symbiosis.Seat",
    .tp_doc = "One seat's static facts for GreedyBot's swap gains.",
    .tp_basicsize = sizeof(Seat),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Seat_init,
    .tp_dealloc = (destructor)Seat_dealloc,
    .tp_methods = Seat_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_symbiosis", "GreedyBot's swap gains for Symbiosis, in C.", -1, module_methods, NULL, NULL,
    NULL, NULL,
};

PyMODINIT_FUNC PyInit__symbiosis(void) {
    GETRANDBITS = PyUnicode_InternFromString("getrandbits");
    if (GETRANDBITS == NULL) return NULL;
    if (PyType_Ready(&SeatType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&SeatType);
    if (PyModule_AddObject(m, "Seat", (PyObject *)&SeatType) < 0) {
        Py_DECREF(&SeatType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "KERNEL_VERSION", KERNEL_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
