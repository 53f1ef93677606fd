/* Ecologies' GreedyBot decision in C: the same choice as GreedyBot.choose (cardtool/games/ecologies/greedy.py)
 * with the values of Valuer (valuer.py), which stay the readable reference.
 *
 * `table(...)` flattens a card table once (cardtool/games/ecologies/accel.py prepares its fields);
 * `choose(table, observation, legal, below, fits, shape, shapes, arrange, fallback)` returns the chosen action.
 * Every value is the same double as Python's, worked out in the same order (the module is built with
 * -ffp-contract=off, so no multiply-add is fused), and ties are drawn through `below` (the bot generator's
 * _randbelow) exactly where GreedyBot draws them. What reads arrangements is asked of Python: `fits(code, cards)`
 * (arrange.fits), `shape(code, cards)` (valuer.web_shape, whose memo `shapes` the kernel reads first),
 * `arrange(code, cards)` (arrange.arrange's kept and dropped cards) and, for the two actions whose value reads
 * more (Move, a rescue play), `fallback(observation, action)` (Valuer.value). An observation the
 * kernel does not hold (more cards, seats or webs than below) is refused (Refused) before any draw,
 * and Python decides instead.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

/* Bump with any change to what the kernel computes or takes: the Python side refuses another version. */
#define KERNEL_VERSION 3

#define MAX_CODES 64
#define MAX_SEATS 16
#define MAX_ECOS 64
#define MAX_WEB 64
#define MAX_HAND 256

enum { R_P = 0, R_C1 = 1, R_SD = 2, R_C2 = 3, R_C3 = 4, R_C4 = 5, ROLES = 6 };
enum { K_ORGANISM = 0, K_BIOME = 1, K_FACTOR = 2 };
enum { T_PLAY = 0, T_ONGOING, T_ACTIVATED, T_TURN_START, T_WEB_GAINS };
enum { W_DRAW = 0, W_DISCARD_RANDOM, W_DISCARD_MATCHING, W_FORCE_TRADE, W_DESTROY, W_TAKE_FROM_DISCARD, W_GAIN_VP,
       W_VP_PER, W_EXTRA_PLAY, W_FREE_PLAY, W_DRAW_FROM_DISCARD, W_PROTECT };
enum { G_YOU = 0, G_PLACER, G_OPPONENT, G_RANDOM_OPPONENT, G_EACH_OPPONENT, G_EACH_PLAYER };
enum { O_ANY = 0, O_YOU, O_OPPONENT };
enum { PL_NONE = 0, PL_WEB, PL_TABLE, PL_DISCARD };
/* The action classes, in the order accel.py registers them. */
enum { A_DRAW = 0, A_OFFER, A_ACCEPT, A_DECLINE, A_PLAY, A_MOVE, A_USE_BONUS, A_CHOOSE_PLAYER, A_CHOOSE_CARD,
       A_ARRANGE, A_DISCARD, A_BUY_WITH, A_DESTROY_ECOLOGY, A_END_PHASE, ACTION_KINDS };

static const double HEALTHY = 3.0, ROLE_FILLED = 0.35, SECOND_PRODUCER = 0.4, DEAD = 0.3, THRESHOLD = 0.05;

typedef struct {
    int trigger, action, target, amount, every, multiplayer_only;
    int has_filter, kind_mask, roles_mask, acting_mask, owner, has_biomes;
    uint64_t biomes_mask;
} Effect;

typedef struct {
    PyObject_HEAD
    int size, ncodes, ndefs, words;
    double target_vp;
    long denominator;
    PyObject *codes;  /* tuple of str */
    int *kind, *placement, *def_of, *nprinted, *neffects, *effect_start;
    int (*printed)[ROLES];
    uint64_t *biomes;
    double *vp_float;
    long *vp_units;
    uint64_t *eats;  /* per definition, `words` words: the definitions it eats */
    Effect *effects;
    PyObject *actions;  /* tuple of the action classes */
    PyObject *roles;  /* tuple of the role names, by number */
} Table;

static void table_dealloc(Table *t) {
    free(t->kind); free(t->placement); free(t->def_of); free(t->nprinted); free(t->neffects);
    free(t->effect_start); free(t->printed); free(t->biomes); free(t->vp_float); free(t->vp_units);
    free(t->eats); free(t->effects);
    Py_XDECREF(t->codes);
    Py_XDECREF(t->actions);
    Py_XDECREF(t->roles);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "cardtool_accel._ecogreedy.Table",
    .tp_basicsize = sizeof(Table),
    .tp_dealloc = (destructor)table_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A card table flattened for the greedy kernel.",
};

static PyObject *Refused;  /* raised before any draw: Python decides instead */

static PyObject *S_seat, *S_mode, *S_players, *S_hand, *S_hand_sizes, *S_discard, *S_ecologies, *S_table_factors,
    *S_stack, *S_card, *S_want, *S_ecology, *S_from_discard, *S_source, *S_effect, *S_single, *S_simplified,
    *S_give, *S_take, *S_rescue, *S_limbo, *S_roles;

static long item_long(PyObject *seq, Py_ssize_t i) {
    PyObject *item = PySequence_GetItem(seq, i);
    if (item == NULL) return -1;
    long v = PyLong_AsLong(item);
    Py_DECREF(item);
    return v;
}

/* table(codes, kind, biomes, printed, vp_float, vp_units, denominator, def_of, eats, placement, effects,
 *       target_vp, actions, roles) */
static PyObject *make_table(PyObject *module, PyObject *args) {
    PyObject *codes, *kind, *biomes, *printed, *vp_float, *vp_units, *def_of, *eats, *placement, *effects, *actions,
        *roles;
    long denominator;
    double target_vp;
    if (!PyArg_ParseTuple(args, "O!OOOOOlOOOOdO!O!", &PyTuple_Type, &codes, &kind, &biomes, &printed, &vp_float,
                          &vp_units, &denominator, &def_of, &eats, &placement, &effects, &target_vp, &PyTuple_Type,
                          &actions, &PyTuple_Type, &roles))
        return NULL;
    Py_ssize_t size = PySequence_Size(kind), ndefs = PySequence_Size(eats);
    if (size < 0 || ndefs < 0) return NULL;
    if (PyTuple_GET_SIZE(codes) > MAX_CODES || PyTuple_GET_SIZE(actions) != ACTION_KINDS
        || PyTuple_GET_SIZE(roles) != ROLES) {
        PyErr_SetString(Refused, "a card table the kernel does not hold");
        return NULL;
    }
    Table *t = PyObject_New(Table, &TableType);
    if (t == NULL) return NULL;
    t->size = (int)size;
    t->ndefs = (int)ndefs;
    t->words = (int)(ndefs / 64 + 1);
    t->ncodes = (int)PyTuple_GET_SIZE(codes);
    t->denominator = denominator;
    t->target_vp = target_vp;
    t->codes = Py_NewRef(codes);
    t->actions = Py_NewRef(actions);
    t->roles = Py_NewRef(roles);
    t->kind = calloc(size + 1, sizeof(int));
    t->placement = calloc(size + 1, sizeof(int));
    t->def_of = calloc(size + 1, sizeof(int));
    t->nprinted = calloc(size + 1, sizeof(int));
    t->neffects = calloc(size + 1, sizeof(int));
    t->effect_start = calloc(size + 1, sizeof(int));
    t->printed = calloc(size + 1, sizeof(int[ROLES]));
    t->biomes = calloc(size + 1, sizeof(uint64_t));
    t->vp_float = calloc(size + 1, sizeof(double));
    t->vp_units = calloc(size + 1, sizeof(long));
    t->eats = calloc((ndefs + 1) * t->words, sizeof(uint64_t));
    t->effects = NULL;
    if (!t->kind || !t->placement || !t->def_of || !t->nprinted || !t->neffects || !t->effect_start || !t->printed
        || !t->biomes || !t->vp_float || !t->vp_units || !t->eats) {
        Py_DECREF(t);
        return PyErr_NoMemory();
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t c = 0; c < size; c++) {
        PyObject *e = PySequence_GetItem(effects, c);
        if (e == NULL) goto fail;
        Py_ssize_t n = PySequence_Size(e);
        Py_DECREF(e);
        if (n < 0) goto fail;
        total += n;
    }
    t->effects = calloc(total + 1, sizeof(Effect));
    if (t->effects == NULL) { Py_DECREF(t); return PyErr_NoMemory(); }
    Py_ssize_t at = 0;
    for (Py_ssize_t c = 0; c < size; c++) {
        t->kind[c] = (int)item_long(kind, c);
        t->placement[c] = (int)item_long(placement, c);
        t->def_of[c] = (int)item_long(def_of, c);
        t->vp_units[c] = item_long(vp_units, c);
        PyObject *b = PySequence_GetItem(biomes, c);
        if (b == NULL) goto fail;
        t->biomes[c] = PyLong_AsUnsignedLongLongMask(b);
        Py_DECREF(b);
        PyObject *v = PySequence_GetItem(vp_float, c);
        if (v == NULL) goto fail;
        t->vp_float[c] = PyFloat_AsDouble(v);
        Py_DECREF(v);
        PyObject *p = PySequence_GetItem(printed, c);
        if (p == NULL) goto fail;
        Py_ssize_t np = PySequence_Size(p);
        if (np < 0 || np > ROLES) { Py_DECREF(p); PyErr_SetString(Refused, "too many roles"); goto fail; }
        t->nprinted[c] = (int)np;
        for (Py_ssize_t k = 0; k < np; k++) t->printed[c][k] = (int)item_long(p, k);
        Py_DECREF(p);
        if (t->def_of[c] < 0 || t->def_of[c] >= ndefs) { PyErr_SetString(Refused, "bad definition"); goto fail; }
        PyObject *e = PySequence_GetItem(effects, c);
        if (e == NULL) goto fail;
        Py_ssize_t n = PySequence_Size(e);
        t->effect_start[c] = (int)at;
        t->neffects[c] = (int)n;
        for (Py_ssize_t k = 0; k < n; k++) {
            PyObject *f = PySequence_GetItem(e, k);
            if (f == NULL) { Py_DECREF(e); goto fail; }
            Effect *x = &t->effects[at++];
            x->trigger = (int)item_long(f, 0);
            x->action = (int)item_long(f, 1);
            x->target = (int)item_long(f, 2);
            x->amount = (int)item_long(f, 3);
            x->every = (int)item_long(f, 4);
            x->multiplayer_only = (int)item_long(f, 5);
            x->has_filter = (int)item_long(f, 6);
            x->kind_mask = (int)item_long(f, 7);
            x->roles_mask = (int)item_long(f, 8);
            x->acting_mask = (int)item_long(f, 9);
            PyObject *bm = PySequence_GetItem(f, 10);
            x->biomes_mask = bm == NULL ? 0 : PyLong_AsUnsignedLongLongMask(bm);
            Py_XDECREF(bm);
            x->owner = (int)item_long(f, 11);
            x->has_biomes = (int)item_long(f, 12);
            Py_DECREF(f);
        }
        Py_DECREF(e);
        if (PyErr_Occurred()) goto fail;
    }
    for (Py_ssize_t d = 0; d < ndefs; d++) {
        PyObject *prey = PySequence_GetItem(eats, d);
        if (prey == NULL) goto fail;
        Py_ssize_t n = PySequence_Size(prey);
        for (Py_ssize_t k = 0; k < n; k++) {
            long p = item_long(prey, k);
            if (p < 0 || p >= ndefs) { Py_DECREF(prey); if (!PyErr_Occurred()) PyErr_SetString(Refused, "bad prey"); goto fail; }
            t->eats[d * t->words + p / 64] |= (uint64_t)1 << (p % 64);
        }
        Py_DECREF(prey);
    }
    if (PyErr_Occurred()) goto fail;
    return (PyObject *)t;
fail:
    Py_DECREF(t);
    return NULL;
}

/* -- one decision */

typedef struct {
    PyObject *obj;  /* the Eco (borrowed from the observation) */
    long biome;
    int owner, code, n;
    PyObject *code_str, *cards_tuple;
    int cards[MAX_WEB], roles[MAX_WEB];
    int healthy;
} Web;

typedef struct {
    Table *t;
    PyObject *obs, *fits, *shape, *shapes, *arrange, *fallback;
    int threats_known, nthreats, shields_known, nshields, shielded;
    const Effect *threats[1024];
    const Effect *shields[256];
    int seat, players, single, simplified;
    int hand[MAX_HAND], nhand;
    long hand_sizes[MAX_SEATS];
    Web webs[MAX_ECOS];
    int nwebs, mine[MAX_ECOS], nmine;
    uint64_t my_codes, hand_biomes;
    int hand_living[MAX_CODES];
    PyObject *discard, *table_factors, *stack, *limbo, *top;  /* borrowed (tuples); top: the stack's top frame or NULL */
    int scored;
    double scores[MAX_SEATS], leaders[MAX_SEATS];
    int hand_valued;
    double hand_values[MAX_HAND];
    char *state;  /* per card: 0 not valued, 1 being valued, 2 valued */
    double *values;
} Decision;

static int code_index(Table *t, PyObject *code) {
    for (int i = 0; i < t->ncodes; i++)
        if (PyTuple_GET_ITEM(t->codes, i) == code) return i;
    for (int i = 0; i < t->ncodes; i++) {
        int eq = PyUnicode_Compare(PyTuple_GET_ITEM(t->codes, i), code);
        if (eq == 0) return i;
        if (eq == -1 && PyErr_Occurred()) return -2;
    }
    return -1;
}

static int role_number(Table *t, PyObject *role) {
    for (int i = 0; i < ROLES; i++)
        if (PyTuple_GET_ITEM(t->roles, i) == role) return i;
    for (int i = 0; i < ROLES; i++) {
        int eq = PyUnicode_Compare(PyTuple_GET_ITEM(t->roles, i), role);
        if (eq == 0) return i;
        if (eq == -1 && PyErr_Occurred()) return -2;
    }
    return -1;
}

static int refuse(const char *why) {
    PyErr_SetString(Refused, why);
    return -1;
}

/* Something a legal action of a real game never holds: an error (not a refusal: ties may have been drawn). */
static int bad(const char *why) {
    PyErr_SetString(PyExc_ValueError, why);
    return -1;
}

static int card_ok(Table *t, long card) { return card >= 0 && card < t->size; }

static int read_int_tuple(PyObject *tuple, int *out, int most, Table *t, int *count) {
    if (!PyTuple_Check(tuple)) return refuse("not a tuple");
    Py_ssize_t n = PyTuple_GET_SIZE(tuple);
    if (n > most) return refuse("more cards than the kernel holds");
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(tuple, i));
        if (v == -1 && PyErr_Occurred()) return -1;
        if (t != NULL && !card_ok(t, v)) return refuse("a card outside the table");
        out[i] = (int)v;
    }
    *count = (int)n;
    return 0;
}

static PyObject *get_tuple(PyObject *obj, PyObject *name) {
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v != NULL && !PyTuple_Check(v)) {
        Py_DECREF(v);
        refuse("an observation field that is not a tuple");
        return NULL;
    }
    return v;
}

static long get_long(PyObject *obj, PyObject *name) {
    PyObject *v = PyObject_GetAttr(obj, name);
    if (v == NULL) return -1;
    long r = PyLong_AsLong(v);
    Py_DECREF(v);
    return r;
}

/* Reads the observation; the references to its tuples are held by the caller's `held`. */
static int read_observation(Decision *d, PyObject *held[5]) {
    Table *t = d->t;
    PyObject *obs = d->obs;
    d->seat = (int)get_long(obs, S_seat);
    d->players = (int)get_long(obs, S_players);
    if (PyErr_Occurred()) return -1;
    if (d->players < 1 || d->players > MAX_SEATS || d->seat < 0 || d->seat >= d->players)
        return refuse("seats the kernel does not hold");
    PyObject *mode = PyObject_GetAttr(obs, S_mode);
    if (mode == NULL) return -1;
    d->single = PyUnicode_Compare(mode, S_single) == 0;
    d->simplified = PyUnicode_Compare(mode, S_simplified) == 0;
    Py_DECREF(mode);
    if (PyErr_Occurred()) return -1;
    PyObject *hand = get_tuple(obs, S_hand);
    if (hand == NULL) return -1;
    int rc = read_int_tuple(hand, d->hand, MAX_HAND, t, &d->nhand);
    Py_DECREF(hand);
    if (rc < 0) return -1;
    PyObject *sizes = get_tuple(obs, S_hand_sizes);
    if (sizes == NULL) return -1;
    if (PyTuple_GET_SIZE(sizes) != d->players) { Py_DECREF(sizes); return refuse("hand sizes"); }
    for (int s = 0; s < d->players; s++) d->hand_sizes[s] = PyLong_AsLong(PyTuple_GET_ITEM(sizes, s));
    Py_DECREF(sizes);
    if (PyErr_Occurred()) return -1;
    held[0] = d->discard = get_tuple(obs, S_discard);
    if (d->discard == NULL) return -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(d->discard); i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(d->discard, i));
        if (!card_ok(t, c)) return PyErr_Occurred() ? -1 : refuse("a card outside the table");
    }
    held[1] = d->table_factors = get_tuple(obs, S_table_factors);
    if (d->table_factors == NULL) return -1;
    held[2] = d->stack = get_tuple(obs, S_stack);
    if (d->stack == NULL) return -1;
    Py_ssize_t depth = PyTuple_GET_SIZE(d->stack);
    d->top = depth ? PyTuple_GET_ITEM(d->stack, depth - 1) : NULL;
    if (d->top != NULL && (!PyTuple_Check(d->top) || PyTuple_GET_SIZE(d->top) < 1)) return refuse("a frame");
    held[4] = d->limbo = get_tuple(obs, S_limbo);
    if (d->limbo == NULL) return -1;
    held[3] = get_tuple(obs, S_ecologies);
    if (held[3] == NULL) return -1;
    PyObject *ecos = held[3];
    if (PyTuple_GET_SIZE(ecos) > MAX_ECOS) return refuse("more webs than the kernel holds");
    d->nwebs = (int)PyTuple_GET_SIZE(ecos);
    d->nmine = 0;
    d->my_codes = 0;
    for (int w = 0; w < d->nwebs; w++) {
        PyObject *eco = PyTuple_GET_ITEM(ecos, w);
        if (!PyTuple_Check(eco) || PyTuple_GET_SIZE(eco) < 7) return refuse("an ecology");
        Web *web = &d->webs[w];
        web->obj = eco;
        web->biome = PyLong_AsLong(PyTuple_GET_ITEM(eco, 0));
        web->owner = (int)PyLong_AsLong(PyTuple_GET_ITEM(eco, 1));
        web->code_str = PyTuple_GET_ITEM(eco, 2);
        web->code = code_index(t, web->code_str);
        web->cards_tuple = PyTuple_GET_ITEM(eco, 3);
        if (read_int_tuple(web->cards_tuple, web->cards, MAX_WEB, t, &web->n) < 0) return -1;
        PyObject *roles = PyTuple_GET_ITEM(eco, 4);
        if (!PyTuple_Check(roles) || PyTuple_GET_SIZE(roles) != web->n) return refuse("an ecology's roles");
        for (int i = 0; i < web->n; i++) {
            web->roles[i] = role_number(t, PyTuple_GET_ITEM(roles, i));
            if (web->roles[i] < 0) return PyErr_Occurred() ? -1 : refuse("a role the kernel does not know");
        }
        web->healthy = PyObject_IsTrue(PyTuple_GET_ITEM(eco, 6));
        if (PyErr_Occurred()) return -1;
        if (web->code < 0) return PyErr_Occurred() ? -1 : refuse("a biome code the table does not have");
        if (web->owner < 0 || web->owner >= d->players) return refuse("an owner");
        if (web->owner == d->seat) {
            d->mine[d->nmine++] = w;
            d->my_codes |= (uint64_t)1 << web->code;
        }
    }
    d->hand_biomes = 0;
    memset(d->hand_living, 0, sizeof d->hand_living);
    for (int i = 0; i < d->nhand; i++) {
        int c = d->hand[i];
        if (t->kind[c] == K_BIOME) d->hand_biomes |= t->biomes[c];
        else if (t->kind[c] == K_ORGANISM)
            for (int k = 0; k < t->ncodes; k++)
                if (t->biomes[c] >> k & 1) d->hand_living[k]++;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(d->table_factors); i++) {
        PyObject *pair = PyTuple_GET_ITEM(d->table_factors, i);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) return refuse("a table factor");
        long c = PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
        long o = PyLong_AsLong(PyTuple_GET_ITEM(pair, 1));
        if (!card_ok(t, c) || o < 0 || o >= d->players) return PyErr_Occurred() ? -1 : refuse("a table factor");
    }
    return 0;
}

static Web *web_of(Decision *d, long biome) {
    for (int w = 0; w < d->nwebs; w++)
        if (d->webs[w].biome == biome) return &d->webs[w];
    return NULL;
}

static double organism_vp(Decision *d, int card) { return d->simplified ? 1.0 : d->t->vp_float[card]; }

/* table.matches with owner_relation (O_YOU / O_OPPONENT), acting (a role number, or -1: none) and code
 * (a code index, or -1: off the table). */
static int matches(Table *t, const Effect *e, int card, int relation, int acting, int code) {
    if (!e->has_filter) return 1;
    if (e->kind_mask && !(e->kind_mask >> t->kind[card] & 1)) return 0;
    if (e->owner != O_ANY && e->owner != relation) return 0;
    if (e->roles_mask) {
        int any = 0;
        for (int k = 0; k < t->nprinted[card]; k++)
            if (e->roles_mask >> t->printed[card][k] & 1) any = 1;
        if (!any) return 0;
    }
    if (e->acting_mask && (acting < 0 || !(e->acting_mask >> acting & 1))) return 0;
    if (e->has_biomes) {
        if (code >= 0) {
            if (!(e->biomes_mask >> code & 1)) return 0;
        } else if (!(e->biomes_mask & t->biomes[card])) {
            return 0;
        }
    }
    return 1;
}

static int eats_def(Table *t, int predator_def, int prey_def) {
    return (int)(t->eats[predator_def * t->words + prey_def / 64] >> (prey_def % 64) & 1);
}

/* arrange.fits_with for a web of the observation and a card; -1 on an error. */
static int fits_with(Decision *d, Web *web, int card) {
    Table *t = d->t;
    if (!(t->biomes[card] >> web->code & 1)) return 0;
    int def = t->def_of[card];
    int could = 0;
    for (int k = 0; k < t->nprinted[card]; k++) {
        int role = t->printed[card][k];
        if (role == R_P) return 1;
        if (role == R_SD) {
            for (int i = 0; i < web->n; i++)
                if (web->roles[i] == R_P) return 1;
            if (!could)
                for (int i = 0; i < web->n && !could; i++)
                    for (int q = 0; q < t->nprinted[web->cards[i]]; q++)
                        if (t->printed[web->cards[i]][q] == R_P) could = 1;
            continue;
        }
        for (int i = 0; i < web->n; i++) {
            int other = web->cards[i];
            if (other != card && eats_def(t, def, t->def_of[other])) {
                int acting = web->roles[i];
                int fed = role == R_C1 ? acting == R_P : role == R_C2 ? (acting == R_C1 || acting == R_SD)
                        : role == R_C3 ? acting == R_C2 : acting == R_C3;
                if (fed) return 1;
                if (!could)
                    for (int q = 0; q < t->nprinted[other]; q++) {
                        int r = t->printed[other][q];
                        if (role == R_C1 ? r == R_P : role == R_C2 ? (r == R_C1 || r == R_SD)
                                : role == R_C3 ? r == R_C2 : r == R_C3)
                            could = 1;
                    }
            }
        }
    }
    if (!could) return 0;
    Py_ssize_t n = PyTuple_GET_SIZE(web->cards_tuple);
    PyObject *cards = PyTuple_New(n + 1);
    if (cards == NULL) return -1;
    for (Py_ssize_t i = 0; i < n; i++) PyTuple_SET_ITEM(cards, i, Py_NewRef(PyTuple_GET_ITEM(web->cards_tuple, i)));
    PyObject *c = PyLong_FromLong(card);
    if (c == NULL) { Py_DECREF(cards); return -1; }
    PyTuple_SET_ITEM(cards, n, c);
    PyObject *r = PyObject_CallFunctionObjArgs(d->fits, web->code_str, cards, NULL);
    Py_DECREF(cards);
    if (r == NULL) return -1;
    int ok = PyObject_IsTrue(r);
    Py_DECREF(r);
    return ok;
}

static int card_value(Decision *d, int card, double *out);

/* Valuer._matching_now */
static int matching_now(Decision *d, const Effect *e) {
    int count = 0;
    for (int m = 0; m < d->nmine; m++) {
        Web *web = &d->webs[d->mine[m]];
        for (int i = 0; i < web->n; i++)
            if (matches(d->t, e, web->cards[i], O_YOU, web->roles[i], web->code)) count++;
    }
    return count;
}

/* Valuer.effect_value; -1 on an error. */
static int effect_value(Decision *d, const Effect *e, int ongoing, double *out) {
    Table *t = d->t;
    if (d->single && (e->multiplayer_only || e->action == W_TAKE_FROM_DISCARD || e->action == W_DRAW_FROM_DISCARD)) {
        *out = 0.0;
        return 0;
    }
    int amount = e->amount;
    double repeats = (e->trigger == T_ACTIVATED || e->trigger == T_TURN_START) ? 2.0 / e->every : 1.0;
    int hurts = e->target == G_OPPONENT || e->target == G_RANDOM_OPPONENT || e->target == G_EACH_OPPONENT;
    double value;
    switch (e->action) {
    case W_DRAW:
        value = 0.5 * amount * (e->trigger == T_WEB_GAINS ? 1.5 : 1.0);
        if (hurts) value = -0.3 * value;
        break;
    case W_DISCARD_RANDOM:
    case W_FORCE_TRADE:
        value = hurts ? 0.4 * amount : -0.4 * amount;
        break;
    case W_DISCARD_MATCHING: {
        double mine = 0.0;
        for (int i = 0; i < d->nhand; i++) {
            if (!matches(t, e, d->hand[i], O_YOU, -1, -1)) continue;
            double v;
            if (card_value(d, d->hand[i], &v) < 0) return -1;
            mine += v;
        }
        long sizes = 0;
        for (int s = 0; s < d->players; s++)
            if (s != d->seat) sizes += d->hand_sizes[s];
        double others = 0.15 * (double)sizes;
        value = (e->target != G_YOU ? others : 0.0) - mine;
        break;
    }
    case W_DESTROY: value = 1.5; break;
    case W_GAIN_VP: value = (double)amount; break;
    case W_VP_PER: value = amount * (1.0 + 0.5 * matching_now(d, e)); break;
    case W_EXTRA_PLAY: value = 1.5 * amount; break;
    case W_FREE_PLAY: value = 0.8; break;
    case W_DRAW_FROM_DISCARD: value = 0.4; break;
    case W_TAKE_FROM_DISCARD: {
        Py_ssize_t n = PyTuple_GET_SIZE(d->discard);
        Py_ssize_t from = n > 8 ? n - 8 : 0;
        double best = 0.0;
        int any = 0;
        for (Py_ssize_t i = from; i < n; i++) {
            int c = (int)PyLong_AsLong(PyTuple_GET_ITEM(d->discard, i));
            double v = 0.8;
            if (t->kind[c] != K_FACTOR && card_value(d, c, &v) < 0) return -1;
            if (!any || v > best) best = v;  /* max(): the first of equals, the same number */
            any = 1;
        }
        value = amount * best;
        break;
    }
    case W_PROTECT: value = 0.6; break;
    default: value = 0.0;
    }
    *out = ongoing ? value * repeats : value;
    return 0;
}

/* Valuer.card_value (every value of one decision is kept: each is a pure function of the observation). */
static int card_value(Decision *d, int card, double *out) {
    if (d->state[card] == 2) {
        *out = d->values[card];
        return 0;
    }
    if (d->state[card] == 1) {
        PyErr_SetString(PyExc_RecursionError, "a card's value depends on itself");
        return -1;
    }
    d->state[card] = 1;
    Table *t = d->t;
    double value = 0.0;
    int kind = t->kind[card];
    if (kind == K_ORGANISM) {
        double vp = organism_vp(d, card);
        uint64_t living = t->biomes[card];
        int done = 0;
        for (int m = 0; m < d->nmine && !done; m++) {
            Web *web = &d->webs[d->mine[m]];
            if (living >> web->code & 1) {
                int f = fits_with(d, web, card);
                if (f < 0) { d->state[card] = 0; return -1; }
                if (f) { value = 0.3 + 0.9 * vp; done = 1; }
            }
        }
        if (!done) {
            if (living & d->my_codes) value = 0.15 + 0.5 * vp;
            else if (living & d->hand_biomes) value = 0.1 + 0.4 * vp;
            else value = 0.1 * vp;
        }
    } else if (kind == K_BIOME) {
        int code = -1;
        for (int k = 0; k < t->ncodes; k++)
            if (t->biomes[card] >> k & 1) code = k;
        if (code >= 0 && (d->my_codes >> code & 1)) value = 0.1;
        else {
            int living = code >= 0 ? d->hand_living[code] : 0;
            value = 0.4 + 0.3 * (living < 4 ? living : 4);
        }
    } else {
        double sum = 0.0;
        for (int k = 0; k < t->neffects[card]; k++) {
            const Effect *e = &t->effects[t->effect_start[card] + k];
            double v;
            if (effect_value(d, e, e->trigger != T_PLAY, &v) < 0) { d->state[card] = 0; return -1; }
            sum += v;
        }
        value = 0.25 + 0.6 * (sum > 0.0 ? sum : 0.0);
    }
    d->values[card] = value;
    d->state[card] = 2;
    *out = value;
    return 0;
}

/* Valuer.vp_estimates, then leader_weight for every seat. */
static void score(Decision *d) {
    if (d->scored) return;
    Table *t = d->t;
    for (int s = 0; s < d->players; s++) d->scores[s] = 0.0;
    for (int w = 0; w < d->nwebs; w++) {
        Web *web = &d->webs[w];
        if (d->simplified) {
            d->scores[web->owner] += (double)web->n;
        } else {
            long units = 0;
            for (int i = 0; i < web->n; i++) units += t->vp_units[web->cards[i]];
            d->scores[web->owner] += (double)units / (double)t->denominator;
        }
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(d->table_factors); i++) {
        PyObject *pair = PyTuple_GET_ITEM(d->table_factors, i);
        int card = (int)PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
        int owner = (int)PyLong_AsLong(PyTuple_GET_ITEM(pair, 1));
        long gain = 0;
        for (int k = 0; k < t->neffects[card]; k++) {
            const Effect *e = &t->effects[t->effect_start[card] + k];
            if (e->action == W_GAIN_VP) gain += e->amount;
        }
        d->scores[owner] += (double)gain;
    }
    double target = t->target_vp > 1.0 ? t->target_vp : 1.0;
    for (int s = 0; s < d->players; s++) d->leaders[s] = 0.5 + d->scores[s] / target;
    d->scored = 1;
}

static double leader_weight(Decision *d, int seat) {
    score(d);
    return d->leaders[seat];
}

/* Valuer.bonus_value */
static int bonus_value(Decision *d, int biome, double *out) {
    Table *t = d->t;
    double sum = 0.0;
    for (int k = 0; k < t->neffects[biome]; k++) {
        double v;
        if (effect_value(d, &t->effects[t->effect_start[biome] + k], 1, &v) < 0) return -1;
        sum += v;
    }
    *out = sum;
    return 0;
}

/* Valuer.eco_value of an ecology of biome card `biome` (code `code`) holding `cards` (a tuple). */
static int eco_value_of(Decision *d, PyObject *code, long biome, PyObject *cards, double *out) {
    PyObject *key = PyTuple_Pack(2, code, cards);  /* valuer.web_shape's memo first: a Python call only to fill it */
    if (key == NULL) return -1;
    PyObject *shape = PyDict_GetItemWithError(d->shapes, key);
    Py_DECREF(key);
    if (shape != NULL) Py_INCREF(shape);
    else if (PyErr_Occurred()) return -1;
    else shape = PyObject_CallFunctionObjArgs(d->shape, code, cards, NULL);
    if (shape == NULL) return -1;
    if (!PyTuple_Check(shape) || PyTuple_GET_SIZE(shape) != 3) {
        Py_DECREF(shape);
        PyErr_SetString(PyExc_TypeError, "shape() must return (filled, healthy, producers)");
        return -1;
    }
    long filled = PyLong_AsLong(PyTuple_GET_ITEM(shape, 0));
    int healthy = PyObject_IsTrue(PyTuple_GET_ITEM(shape, 1));
    int producers = PyObject_IsTrue(PyTuple_GET_ITEM(shape, 2));
    Py_DECREF(shape);
    if (PyErr_Occurred()) return -1;
    if (!card_ok(d->t, biome)) return bad("a biome card outside the table");
    double value = ROLE_FILLED * (double)filled;
    if (healthy) {
        double bonus;
        if (bonus_value(d, (int)biome, &bonus) < 0) return -1;
        value += HEALTHY + bonus;
    }
    if (producers) value += SECOND_PRODUCER;
    *out = value;
    return 0;
}

/* A web's cards with one card more (`extra` >= 0) or one card less (`without` >= 0), as a new tuple. */
static PyObject *cards_changed(PyObject *cards, long extra, long without) {
    Py_ssize_t n = PyTuple_GET_SIZE(cards);
    PyObject *result = PyTuple_New(n + (extra >= 0));
    if (result == NULL) return NULL;
    Py_ssize_t at = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *c = PyTuple_GET_ITEM(cards, i);
        if (without >= 0) {
            long v = PyLong_AsLong(c);
            if (v == without) continue;
        }
        PyTuple_SET_ITEM(result, at++, Py_NewRef(c));
    }
    if (extra >= 0) {
        PyObject *c = PyLong_FromLong(extra);
        if (c == NULL) { Py_DECREF(result); return NULL; }
        PyTuple_SET_ITEM(result, at++, c);
    }
    if (at != PyTuple_GET_SIZE(result) && _PyTuple_Resize(&result, at) < 0) return NULL;
    return result;
}

/* Valuer.eco_value of a web's cards, with one card more when `extra` >= 0. */
static int eco_value(Decision *d, Web *web, int extra, double *out) {
    if (extra < 0) return eco_value_of(d, web->code_str, web->biome, web->cards_tuple, out);
    PyObject *cards = cards_changed(web->cards_tuple, extra, -1);
    if (cards == NULL) return -1;
    int rc = eco_value_of(d, web->code_str, web->biome, cards, out);
    Py_DECREF(cards);
    return rc;
}

/* What is lost when `card` leaves a web (Exposure._loss, and Valuer.destroy_value's parts): the VP of it and
 * of the cards left unfed, and the eco_value before and after. */
static int losing(Decision *d, Web *web, int card, double *vp, double *before, double *after) {
    PyObject *rest = cards_changed(web->cards_tuple, -1, card);
    if (rest == NULL) return -1;
    PyObject *r = PyObject_CallFunctionObjArgs(d->arrange, web->code_str, rest, NULL);
    Py_DECREF(rest);
    if (r == NULL) return -1;
    if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 2 || !PyTuple_Check(PyTuple_GET_ITEM(r, 0))
        || !PyTuple_Check(PyTuple_GET_ITEM(r, 1))) {
        Py_DECREF(r);
        PyErr_SetString(PyExc_TypeError, "arrange() must return (kept, dropped)");
        return -1;
    }
    PyObject *kept = PyTuple_GET_ITEM(r, 0), *dropped = PyTuple_GET_ITEM(r, 1);
    double lost = organism_vp(d, card);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(dropped); i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(dropped, i));
        if (!card_ok(d->t, c)) { Py_DECREF(r); return PyErr_Occurred() ? -1 : bad("a card outside the table"); }
        lost += organism_vp(d, (int)c);
    }
    *vp = lost;
    int rc = eco_value_of(d, web->code_str, web->biome, web->cards_tuple, before);
    if (rc == 0) rc = eco_value_of(d, web->code_str, web->biome, kept, after);
    Py_DECREF(r);
    return rc;
}

static int fallback(Decision *d, PyObject *action, double *out) {
    PyObject *r = PyObject_CallFunctionObjArgs(d->fallback, d->obs, action, NULL);
    if (r == NULL) return -1;
    *out = PyFloat_AsDouble(r);
    Py_DECREF(r);
    return PyErr_Occurred() ? -1 : 0;
}

static int frame_is(PyObject *frame, PyObject *kind) {
    if (frame == NULL) return 0;
    PyObject *k = PyTuple_GET_ITEM(frame, 0);
    return k == kind || (PyUnicode_Check(k) && PyUnicode_Compare(k, kind) == 0);
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* card_value of the card an action names (its `card` field). */
static int value_of_card(Decision *d, PyObject *action, double *out) {
    long card = get_long(action, S_card);
    if (PyErr_Occurred()) return -1;
    if (!card_ok(d->t, card)) return bad("a card outside the table");
    return card_value(d, (int)card, out);
}

/* Valuer.value for one legal action (EndPhase is THRESHOLD, as GreedyBot.choose counts it). */
/* Exposure.threats: destroy effects against this seat on factor cards it has not seen. */
static int find_threats(Decision *d) {
    if (d->threats_known) return 0;
    Table *t = d->t;
    char *out = calloc(t->size + 1, 1);
    if (out == NULL) { PyErr_NoMemory(); return -1; }
    for (int i = 0; i < d->nhand; i++) out[d->hand[i]] = 1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(d->discard); i++) out[PyLong_AsLong(PyTuple_GET_ITEM(d->discard, i))] = 1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(d->limbo); i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(d->limbo, i));
        if (card_ok(t, c)) out[c] = 1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(d->table_factors); i++)
        out[PyLong_AsLong(PyTuple_GET_ITEM(PyTuple_GET_ITEM(d->table_factors, i), 0))] = 1;
    for (int w = 0; w < d->nwebs; w++) {
        PyObject *factors = PyTuple_GET_ITEM(d->webs[w].obj, 5);
        if (!PyTuple_Check(factors)) { free(out); return bad("an ecology's factors"); }
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(factors); i++) {
            PyObject *pair = PyTuple_GET_ITEM(factors, i);
            long c = PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) ? PyLong_AsLong(PyTuple_GET_ITEM(pair, 0)) : -1;
            if (card_ok(t, c)) out[c] = 1;
        }
    }
    d->nthreats = 0;
    for (int c = 0; c < t->size; c++) {
        if (t->kind[c] != K_FACTOR || out[c]) continue;
        for (int k = 0; k < t->neffects[c]; k++) {
            const Effect *e = &t->effects[t->effect_start[c] + k];
            if (e->action == W_DESTROY && (e->target == G_OPPONENT || e->target == G_RANDOM_OPPONENT
                                           || e->target == G_EACH_OPPONENT)) {
                if (d->nthreats >= 1024) { free(out); return bad("too many threats"); }
                d->threats[d->nthreats++] = e;
            }
        }
    }
    free(out);
    d->threats_known = 1;
    return PyErr_Occurred() ? -1 : 0;
}

/* Exposure._my_protections: the protect effects in force for this seat (shielded: one without a filter). */
static int find_shields(Decision *d) {
    if (d->shields_known) return 0;
    Table *t = d->t;
    d->nshields = 0;
    d->shielded = 0;
    int sources[MAX_ECOS + 1024], count = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(d->table_factors) && count < 1024; i++) {
        PyObject *pair = PyTuple_GET_ITEM(d->table_factors, i);
        if (PyLong_AsLong(PyTuple_GET_ITEM(pair, 1)) == d->seat) sources[count++] = (int)PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
    }
    for (int m = 0; m < d->nmine; m++)
        if (d->webs[d->mine[m]].healthy) sources[count++] = (int)d->webs[d->mine[m]].biome;
    for (int s = 0; s < count; s++) {
        int c = sources[s];
        if (!card_ok(t, c)) return bad("a card outside the table");
        for (int k = 0; k < t->neffects[c]; k++) {
            const Effect *e = &t->effects[t->effect_start[c] + k];
            if (e->action == W_PROTECT && e->trigger == T_ONGOING) {
                if (d->nshields >= 256) return bad("too many shields");
                d->shields[d->nshields++] = e;
                if (!e->has_filter) d->shielded = 1;
            }
        }
    }
    d->shields_known = 1;
    return 0;
}

/* -Exposure.exposure(eco, roles): the value of an Arrange choice. */
static int arrange_value(Decision *d, PyObject *action, double *out) {
    Table *t = d->t;
    long ecology = get_long(action, S_ecology);
    if (PyErr_Occurred()) return -1;
    Web *web = web_of(d, ecology);
    if (web == NULL) { PyErr_SetObject(PyExc_KeyError, PyLong_FromLong(ecology)); return -1; }
    if (find_threats(d) < 0) return -1;
    if (!d->nthreats) { *out = -0.0; return 0; }
    if (find_shields(d) < 0) return -1;
    if (d->shielded) { *out = -0.0; return 0; }
    PyObject *roles_in = PyObject_GetAttr(action, S_roles);
    if (roles_in == NULL) return -1;
    if (!PyTuple_Check(roles_in)) { Py_DECREF(roles_in); return bad("roles"); }
    int roles[MAX_WEB];
    Py_ssize_t n = PyTuple_GET_SIZE(roles_in);
    if (n > web->n) n = web->n;  /* zip() stops at the shorter */
    for (Py_ssize_t i = 0; i < n; i++) {
        roles[i] = role_number(t, PyTuple_GET_ITEM(roles_in, i));
        if (roles[i] < 0) { Py_DECREF(roles_in); return PyErr_Occurred() ? -1 : bad("a role"); }
    }
    Py_DECREF(roles_in);
    double total = 0.0;
    for (int k = 0; k < d->nthreats; k++) {
        double worst = 0.0;
        for (Py_ssize_t i = 0; i < n; i++) {
            int card = web->cards[i];
            if (!matches(t, d->threats[k], card, O_OPPONENT, roles[i], web->code)) continue;
            int shield = 0;
            for (int s = 0; s < d->nshields && !shield; s++)
                if (matches(t, d->shields[s], card, O_YOU, roles[i], web->code)) shield = 1;
            if (shield) continue;
            double vp, before, after;
            if (losing(d, web, card, &vp, &before, &after) < 0) return -1;
            double loss = vp + before - after;
            if (loss > worst) worst = loss;
        }
        total += worst;
    }
    *out = -total;
    return 0;
}

/* Valuer.destroy_value of a card on the table. */
static int destroy_value(Decision *d, PyObject *action, double *out) {
    long card = get_long(action, S_card);
    if (PyErr_Occurred()) return -1;
    Web *web = NULL;
    for (int w = 0; w < d->nwebs && web == NULL; w++)
        for (int i = 0; i < d->webs[w].n; i++)
            if (d->webs[w].cards[i] == card) { web = &d->webs[w]; break; }
    if (web == NULL) return bad("a card on no web");
    double vp, before, after;
    if (losing(d, web, (int)card, &vp, &before, &after) < 0) return -1;
    double loss = vp;
    loss += before - after;
    *out = web->owner == d->seat ? -loss : loss * leader_weight(d, web->owner);
    return 0;
}

static int action_value(Decision *d, int kind, PyObject *action, double *out) {
    Table *t = d->t;
    switch (kind) {
    case A_END_PHASE: *out = THRESHOLD; return 0;
    case A_DECLINE: *out = 0.0; return 0;
    case A_DESTROY_ECOLOGY: *out = -10.0; return 0;
    case A_PLAY: {
        long card = get_long(action, S_card);
        long ecology = get_long(action, S_ecology);
        if (PyErr_Occurred()) return -1;
        if (!card_ok(t, card)) return bad("a card outside the table");
        int k = t->kind[card];
        if (k == K_ORGANISM) {
            Web *web = web_of(d, ecology);
            if (web == NULL) { PyErr_SetObject(PyExc_KeyError, PyLong_FromLong(ecology)); return -1; }
            if (frame_is(d->top, S_rescue)) {
                PyObject *b = PyTuple_GET_SIZE(d->top) > 2 ? PyTuple_GET_ITEM(d->top, 2) : NULL;
                if (b != NULL && PyLong_AsLong(b) == web->biome) return fallback(d, action, out);
                if (PyErr_Occurred()) return -1;
            }
            double before, after;
            if (eco_value(d, web, -1, &before) < 0 || eco_value(d, web, (int)card, &after) < 0) return -1;
            *out = organism_vp(d, (int)card) + 0.0 + after - before + 0.2;
            return 0;
        }
        if (k == K_BIOME) {
            int code = -1;
            for (int c = 0; c < t->ncodes; c++)
                if (t->biomes[card] >> c & 1) code = c;
            int living = code >= 0 ? d->hand_living[code] : 0;
            if (code >= 0 && (d->my_codes >> code & 1)) *out = 0.1 * living - 0.3;
            else if (!living) *out = 0.1 + (d->nmine ? 0.0 : 1.0);
            else *out = 0.3 + 0.35 * (living < 5 ? living : 5) + (d->nmine ? 0.0 : 1.0);
            return 0;
        }
        double value = 0.0;
        for (int e = 0; e < t->neffects[card]; e++) {
            const Effect *x = &t->effects[t->effect_start[card] + e];
            double v;
            if (effect_value(d, x, x->trigger != T_PLAY, &v) < 0) return -1;
            value += v;
        }
        if (t->placement[card] == PL_WEB && ecology >= 0) {
            Web *web = web_of(d, ecology);
            if (web == NULL) { PyErr_SetObject(PyExc_KeyError, PyLong_FromLong(ecology)); return -1; }
            if (web->owner != d->seat) value -= 1.0;
        }
        *out = value - 0.2;
        return 0;
    }
    case A_USE_BONUS: {
        long source = get_long(action, S_source);
        long index = get_long(action, S_effect);
        if (PyErr_Occurred()) return -1;
        if (!card_ok(t, source) || index < 0 || index >= t->neffects[source]) return bad("a bonus");
        double v;
        if (effect_value(d, &t->effects[t->effect_start[source] + index], 0, &v) < 0) return -1;
        *out = v + 0.2;
        return 0;
    }
    case A_OFFER: {
        long card = get_long(action, S_card);
        if (PyErr_Occurred()) return -1;
        PyObject *want = PyObject_GetAttr(action, S_want);
        if (want == NULL) return -1;
        int code = PyUnicode_GET_LENGTH(want) ? code_index(t, want) : -1;
        Py_DECREF(want);
        if (code == -2) return -1;
        if (code < 0 || !((d->my_codes | d->hand_biomes) >> code & 1)) { *out = -1.0; return 0; }
        double given;
        if (card_value(d, (int)card, &given) < 0) return -1;
        if (given >= DEAD) { *out = -1.0; return 0; }
        double helps = 0.0;
        int any = 0;
        for (int w = 0; w < d->nwebs; w++) {
            Web *web = &d->webs[w];
            if (web->owner != d->seat && (t->biomes[card] >> web->code & 1)) {
                double l = leader_weight(d, web->owner);
                if (!any || l > helps) helps = l;
                any = 1;
            }
        }
        *out = 0.6 - given - 0.4 * helps;
        return 0;
    }
    case A_ACCEPT: {
        if (d->top == NULL || PyTuple_GET_SIZE(d->top) < 4) return bad("an offer frame");
        long offerer = PyLong_AsLong(PyTuple_GET_ITEM(d->top, 2));
        long offered = PyLong_AsLong(PyTuple_GET_ITEM(d->top, 3));
        long card = get_long(action, S_card);
        if (PyErr_Occurred()) return -1;
        if (!card_ok(t, offered) || !card_ok(t, card) || offerer < 0 || offerer >= d->players) return bad("an offer");
        double a, b;
        if (card_value(d, (int)offered, &a) < 0 || card_value(d, (int)card, &b) < 0) return -1;
        *out = a - b - 0.15 * leader_weight(d, (int)offerer);
        return 0;
    }
    case A_DRAW: {
        PyObject *from = PyObject_GetAttr(action, S_from_discard);
        if (from == NULL) return -1;
        int yes = PyObject_IsTrue(from);
        Py_DECREF(from);
        Py_ssize_t n = PyTuple_GET_SIZE(d->discard);
        if (yes && n) {
            double v;
            if (card_value(d, (int)PyLong_AsLong(PyTuple_GET_ITEM(d->discard, n - 1)), &v) < 0) return -1;
            *out = v - 0.6;
        } else {
            *out = 0.0;
        }
        return 0;
    }
    case A_CHOOSE_PLAYER: {
        long seat = get_long(action, S_seat);
        if (PyErr_Occurred()) return -1;
        if (seat < 0 || seat >= d->players) return bad("a seat");
        *out = leader_weight(d, (int)seat) + 0.05 * (double)d->hand_sizes[seat];
        return 0;
    }
    case A_CHOOSE_CARD: {
        if (d->top == NULL) return bad("a choice frame");
        int give = frame_is(d->top, S_give), take = frame_is(d->top, S_take);
        if (!give && !take) return destroy_value(d, action, out);
        double v;
        if (value_of_card(d, action, &v) < 0) return -1;
        *out = give ? -v : v;
        return 0;
    }
    case A_DISCARD: {
        double v;
        if (value_of_card(d, action, &v) < 0) return -1;
        *out = -v;
        return 0;
    }
    case A_BUY_WITH: {
        double v;
        if (value_of_card(d, action, &v) < 0) return -1;
        if (d->top != NULL) { *out = 1.0 - v; return 0; }
        if (!d->hand_valued) {
            for (int i = 0; i < d->nhand; i++)
                if (card_value(d, d->hand[i], &d->hand_values[i]) < 0) return -1;
            qsort(d->hand_values, d->nhand, sizeof(double), compare_doubles);
            d->hand_valued = 1;
        }
        if (d->nhand < 4 || d->hand_values[3] >= DEAD) *out = -1.0;
        else *out = 0.5 - v;
        return 0;
    }
    case A_ARRANGE: return arrange_value(d, action, out);
    default:
        return fallback(d, action, out);
    }
}

static int action_kind(Table *t, PyObject *action) {
    PyObject *type = (PyObject *)Py_TYPE(action);
    for (int k = 0; k < ACTION_KINDS; k++)
        if (PyTuple_GET_ITEM(t->actions, k) == type) return k;
    return -1;
}

/* choose(table, observation, legal, below, fits, shape, shapes, arrange, fallback) -> the action GreedyBot.choose
 * takes. */
static PyObject *choose(PyObject *module, PyObject *args) {
    Table *t;
    PyObject *obs, *legal, *below, *fits, *shape, *shapes, *arr, *fall;
    if (!PyArg_ParseTuple(args, "O!OOOOOO!OO", &TableType, &t, &obs, &legal, &below, &fits, &shape, &PyDict_Type,
                          &shapes, &arr, &fall))
        return NULL;
    PyObject *actions = PySequence_Fast(legal, "legal actions must be a sequence");
    if (actions == NULL) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(actions);
    PyObject **items = PySequence_Fast_ITEMS(actions);
    Decision *d = malloc(sizeof(Decision));  /* large (fixed arrays): only its flags are cleared */
    if (d != NULL) {
        d->scored = d->hand_valued = d->threats_known = d->shields_known = 0;
        d->nwebs = d->nmine = d->nhand = 0;
    }
    char *state = calloc(t->size + 1, 1);
    double *values = calloc(t->size + 1, sizeof(double));
    int *kinds = calloc(count + 1, sizeof(int));
    PyObject *held[5] = {NULL, NULL, NULL, NULL, NULL};
    PyObject *result = NULL;
    if (d == NULL || state == NULL || values == NULL || kinds == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    d->t = t;
    d->obs = obs;
    d->fits = fits;
    d->shape = shape;
    d->shapes = shapes;
    d->arrange = arr;
    d->fallback = fall;
    d->state = state;
    d->values = values;
    if (read_observation(d, held) < 0) goto done;
    for (Py_ssize_t i = 0; i < count; i++) kinds[i] = action_kind(t, items[i]);
    /* GreedyBot.choose: offers of a card worth less than DEAD for a wanted biome only, one value per card. */
    uint64_t wanted = 0, cheap_known = 0;
    int any_offer = 0;
    for (Py_ssize_t i = 0; i < count; i++)
        if (kinds[i] == A_OFFER) any_offer = 1;
    if (any_offer) wanted = d->my_codes | d->hand_biomes;
    char *cheap = calloc(t->size + 1, 1);  /* 0 unknown, 1 cheap, 2 not */
    double *offer_values = calloc(t->size + 1, sizeof(double));
    char *offered = calloc(t->size + 1, 1);
    if (cheap == NULL || offer_values == NULL || offered == NULL) {
        free(cheap); free(offer_values); free(offered);
        PyErr_NoMemory();
        goto done;
    }
    if (wanted) {
        for (int i = 0; i < d->nhand; i++) {
            double v;
            if (card_value(d, d->hand[i], &v) < 0) goto offers_done;
            cheap[d->hand[i]] = v < DEAD ? 1 : 2;
        }
    }
    cheap_known = 1;
    {
        int have = 0, ties = 0;
        double best = 0.0;
        PyObject *choice = NULL;
        for (Py_ssize_t i = 0; i < count; i++) {
            PyObject *action = items[i];
            double value;
            if (kinds[i] == A_OFFER) {
                long card = get_long(action, S_card);
                if (card == -1 && PyErr_Occurred()) goto offers_done;
                if (!card_ok(t, card) || cheap[card] != 1) continue;
                PyObject *want = PyObject_GetAttr(action, S_want);
                if (want == NULL) goto offers_done;
                int code = PyUnicode_GET_LENGTH(want) ? code_index(t, want) : -1;
                Py_DECREF(want);
                if (code == -2) goto offers_done;
                if (code < 0 || !(wanted >> code & 1)) continue;
                if (offered[card]) {
                    value = offer_values[card];
                } else {
                    if (action_value(d, A_OFFER, action, &value) < 0) goto offers_done;
                    offer_values[card] = value;
                    offered[card] = 1;
                }
            } else if (action_value(d, kinds[i], action, &value) < 0) {
                goto offers_done;
            }
            if (!have || value > best + 1e-9) {
                best = value;
                choice = action;
                ties = 1;
                have = 1;
            } else if (fabs(value - best) <= 1e-9) {
                ties++;
                PyObject *n = PyLong_FromLong(ties);
                if (n == NULL) goto offers_done;
                PyObject *r = PyObject_CallOneArg(below, n);
                Py_DECREF(n);
                if (r == NULL) goto offers_done;
                long drawn = PyLong_AsLong(r);
                Py_DECREF(r);
                if (drawn == -1 && PyErr_Occurred()) goto offers_done;
                if (drawn == 0) choice = action;
            }
        }
        result = Py_NewRef(choice ? choice : Py_None);
    }
offers_done:
    (void)cheap_known;
    free(cheap);
    free(offer_values);
    free(offered);
done:
    for (int i = 0; i < 5; i++) Py_XDECREF(held[i]);
    free(d);
    free(state);
    free(values);
    free(kinds);
    Py_DECREF(actions);
    return result;
}

static PyMethodDef module_methods[] = {
    {"table", make_table, METH_VARARGS, "table(...) -> Table: a card table flattened for choose (accel.py)."},
    {"choose", choose, METH_VARARGS,
     "choose(table, observation, legal, below, fits, shape, shapes, arrange, fallback) -> the action GreedyBot.choose "
     "takes."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ecogreedy", "Ecologies' GreedyBot decision, in C.", -1, module_methods, NULL, NULL,
    NULL, NULL,
};

#define INTERN(var, text) do { if ((var = PyUnicode_InternFromString(text)) == NULL) return NULL; } while (0)

PyMODINIT_FUNC PyInit__ecogreedy(void) {
    INTERN(S_seat, "seat"); INTERN(S_mode, "mode"); INTERN(S_players, "players"); INTERN(S_hand, "hand");
    INTERN(S_hand_sizes, "hand_sizes"); INTERN(S_discard, "discard"); INTERN(S_ecologies, "ecologies");
    INTERN(S_table_factors, "table_factors"); INTERN(S_stack, "stack"); INTERN(S_card, "card");
    INTERN(S_want, "want"); INTERN(S_ecology, "ecology"); INTERN(S_from_discard, "from_discard");
    INTERN(S_source, "source"); INTERN(S_effect, "effect"); INTERN(S_single, "single");
    INTERN(S_simplified, "simplified"); INTERN(S_give, "give"); INTERN(S_take, "take"); INTERN(S_rescue, "rescue");
    INTERN(S_limbo, "limbo"); INTERN(S_roles, "roles");
    if (PyType_Ready(&TableType) < 0) return NULL;
    Refused = PyErr_NewException("cardtool_accel._ecogreedy.Refused", PyExc_LookupError, NULL);
    if (Refused == NULL) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "Refused", Refused) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "KERNEL_VERSION", KERNEL_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
