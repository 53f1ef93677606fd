/* The Ecologies arrangement solver in C: the same search as cardtool/games/ecologies/arrange.py
 * (`_solve` and `_alternatives`, with `feasible`), which is the readable reference.
 *
 * Both take one web as `masks` prepares it (web_masks.masks, the reference): per position of the canonical order,
 * the bitmask of the positions it eats and its printed roles as the solver's numbers (P=0, C1=1, SD=2,
 * C2=3, C3=4, C4=5), and the six role weights. The search is the same branch and bound, node for node
 * (the same order of cards and roles, the same bounds, the same node budgets), so it finds the same
 * arrangement and lists the same alternatives in the same order. Webs of more than MAX_CARDS cards,
 * roles printed more than MAX_PRINTED times, or weights beyond WEIGHT_LIMIT are refused (ValueError),
 * and the Python side solves them itself.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* Bump with any change to what the kernel computes or takes: the Python side refuses another version. */
#define KERNEL_VERSION 2

#define MAX_CARDS 62
#define MAX_PRINTED 8
#define WEIGHT_LIMIT ((int64_t)1 << 40) /* sums of at most 62 weights stay far inside int64 */
#define MAX_FOUND 64

enum { P = 0, C1 = 1, SD = 2, C2 = 3, C3 = 4, C4 = 5, ROLES = 6 };

typedef uint64_t mask;

/* One web, as read from Python. */
typedef struct {
    int n;
    mask eats[MAX_CARDS];
    int printed_count[MAX_CARDS];
    int printed[MAX_CARDS][MAX_PRINTED];
    int64_t weights[ROLES];
} Web;

static int is_health(int r) { return r != C4; }

/* Reads (eats, printed, weights) into web; -1 with an exception set when they do not fit. */
static int read_web(PyObject *eats, PyObject *printed, PyObject *weights, Web *web) {
    Py_ssize_t n = PySequence_Size(eats);
    if (n < 0) return -1;
    if (n > MAX_CARDS || PySequence_Size(printed) != n || PySequence_Size(weights) != ROLES) {
        PyErr_SetString(PyExc_ValueError, "a web the kernel does not hold");
        return -1;
    }
    web->n = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_GetItem(eats, i);
        if (item == NULL) return -1;
        unsigned long long value = PyLong_AsUnsignedLongLongMask(item);
        Py_DECREF(item);
        if (value == (unsigned long long)-1 && PyErr_Occurred()) return -1;
        web->eats[i] = (mask)value & (((mask)1 << n) - 1);
        PyObject *roles = PySequence_GetItem(printed, i);
        if (roles == NULL) return -1;
        Py_ssize_t count = PySequence_Size(roles);
        if (count < 0 || count > MAX_PRINTED) {
            Py_DECREF(roles);
            if (count >= 0) PyErr_SetString(PyExc_ValueError, "more printed roles than the kernel holds");
            return -1;
        }
        web->printed_count[i] = (int)count;
        for (Py_ssize_t k = 0; k < count; k++) {
            PyObject *role = PySequence_GetItem(roles, k);
            long r = role == NULL ? -1 : PyLong_AsLong(role);
            Py_XDECREF(role);
            if (r < 0 || r >= ROLES) {
                Py_DECREF(roles);
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a role number out of range");
                return -1;
            }
            web->printed[i][k] = (int)r;
        }
        Py_DECREF(roles);
    }
    for (int r = 0; r < ROLES; r++) {
        PyObject *item = PySequence_GetItem(weights, r);
        if (item == NULL) return -1;
        int overflow = 0;
        long long w = PyLong_AsLongLongAndOverflow(item, &overflow);
        Py_DECREF(item);
        if (w == -1 && PyErr_Occurred()) return -1;
        if (overflow || w >= WEIGHT_LIMIT || w <= -WEIGHT_LIMIT) {
            PyErr_SetString(PyExc_ValueError, "a role weight beyond the kernel's range");
            return -1;
        }
        web->weights[r] = w;
    }
    return 0;
}

/* arrange.feasible: per role, the positions that could be fed in it if every other card helped. */
static void feasible(const Web *web, mask can[ROLES]) {
    memset(can, 0, sizeof(mask) * ROLES);
    for (int i = 0; i < web->n; i++)
        for (int k = 0; k < web->printed_count[i]; k++)
            if (web->printed[i][k] == P) can[P] |= (mask)1 << i;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int i = 0; i < web->n; i++) {
            mask bit = (mask)1 << i;
            for (int k = 0; k < web->printed_count[i]; k++) {
                int r = web->printed[i][k];
                if (r == P || (can[r] & bit)) continue;
                mask ok;
                if (r == SD) {
                    ok = can[P] & ~bit;
                } else {
                    mask prey = r == C1 ? can[P] : r == C2 ? (can[C1] | can[SD]) : r == C3 ? can[C2] : can[C3];
                    ok = web->eats[i] & prey;
                }
                if (ok) {
                    can[r] |= bit;
                    changed = 1;
                }
            }
        }
    }
}

static int popcount(mask m) { return __builtin_popcountll(m); }

/* Roles as a tuple of role numbers, None where a role is -1 (unfed); NULL with an exception set on failure. */
static PyObject *roles_tuple(const int *roles, int n) {
    PyObject *result = PyTuple_New(n);
    if (result == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *role = roles[i] < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(roles[i]);
        if (role == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, i, role);
    }
    return result;
}

/* ---- _solve ---- */

typedef struct {
    const Web *web;
    int size;                       /* positions with an option, in `order` */
    int order[MAX_CARDS];
    int options[MAX_CARDS][MAX_PRINTED];
    int option_count[MAX_CARDS];
    mask prey_can[ROLES];
    mask can_p, can_c1, can_sd, can_c2, can_c3;
    int assigned[MAX_CARDS];        /* -1: no role */
    mask role_mask[ROLES];
    int kept[MAX_CARDS], kept_count;
    mask unassigned;
    int64_t best_key[3], ceiling[3];
    int best[MAX_CARDS], have_best;
    int64_t rest_weight[MAX_CARDS + 1];
    long nodes, budget;
} Solve;

/* Lexicographic comparison of two 3-tuples. */
static int compare3(const int64_t a[3], const int64_t b[3]) {
    for (int k = 0; k < 3; k++) {
        if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
    }
    return 0;
}

static int consistent(const Solve *s) {
    const mask *role_mask = s->role_mask;
    mask producers = role_mask[P] | (s->unassigned & s->can_p);
    mask prey_now[ROLES] = {0, role_mask[P], 0, role_mask[C1] | role_mask[SD], role_mask[C2], role_mask[C3]};
    for (int j = 0; j < s->kept_count; j++) {
        int k = s->kept[j];
        int r = s->assigned[k];
        if (r == P) continue;
        if (r == SD) {
            if (!(producers & ~((mask)1 << k))) return 0;
        } else if (!(s->web->eats[k] & (prey_now[r] | (s->unassigned & s->prey_can[r])))) {
            return 0;
        }
    }
    return 1;
}

/* One node of the branch and bound; 1 stops the whole search (ceiling reached or budget spent). */
static int search(Solve *s, int depth, int64_t weight) {
    s->nodes++;
    mask *role_mask = s->role_mask;
    if (depth == s->size) {
        int64_t key[3] = {s->kept_count,
                          (role_mask[P] && role_mask[C1] && role_mask[C2] && role_mask[C3] && role_mask[SD]) ? 1 : 0,
                          weight};
        if (compare3(key, s->best_key) > 0) {
            memcpy(s->best_key, key, sizeof key);
            memcpy(s->best, s->assigned, sizeof(int) * s->web->n);
            s->have_best = 1;
        }
        return compare3(s->best_key, s->ceiling) == 0;
    }
    if (s->nodes > s->budget) return 1;
    mask un = s->unassigned;
    int healthy = (role_mask[P] || (un & s->can_p)) && (role_mask[C1] || (un & s->can_c1))
                  && (role_mask[C2] || (un & s->can_c2)) && (role_mask[C3] || (un & s->can_c3))
                  && (role_mask[SD] || (un & s->can_sd));
    int64_t bound[3] = {s->kept_count + s->size - depth, healthy, weight + s->rest_weight[depth]};
    if (compare3(bound, s->best_key) <= 0) return 0;
    int i = s->order[depth];
    mask bit = (mask)1 << i;
    s->unassigned &= ~bit;
    for (int k = 0; k < s->option_count[i]; k++) {
        int r = s->options[i][k];
        s->assigned[i] = r;
        role_mask[r] |= bit;
        s->kept[s->kept_count++] = i;
        if (consistent(s) && search(s, depth + 1, weight + s->web->weights[r])) return 1;
        s->kept_count--;
        role_mask[r] &= ~bit;
    }
    s->assigned[i] = -1;
    int stop = consistent(s) && search(s, depth + 1, weight);
    s->unassigned |= bit;
    return stop;
}

/* Sort key of a role in _solve's preference: (-weight, cards able to fill it if a health role else 99, r). */
static int prefer_before(const Web *web, const mask can[ROLES], int a, int b) {
    int64_t ka[3] = {-web->weights[a], is_health(a) ? popcount(can[a]) : 99, a};
    int64_t kb[3] = {-web->weights[b], is_health(b) ? popcount(can[b]) : 99, b};
    return compare3(ka, kb) < 0;
}

static PyObject *solve(PyObject *module, PyObject *args) {
    PyObject *eats, *printed, *weights;
    long budget;
    if (!PyArg_ParseTuple(args, "OOOl", &eats, &printed, &weights, &budget)) return NULL;
    Web web;
    if (read_web(eats, printed, weights, &web) < 0) return NULL;
    int n = web.n;
    mask can[ROLES];
    feasible(&web, can);
    static Solve s;  /* large; the GIL is held throughout, so one is enough */
    memset(&s, 0, sizeof s);
    s.web = &web;
    s.budget = budget;
    for (int i = 0; i < n; i++) {
        int count = 0;
        for (int k = 0; k < web.printed_count[i]; k++) {
            int r = web.printed[i][k];
            if (!(can[r] >> i & 1)) continue;
            /* insertion sort, stable: the same order as Python's sorted() */
            int at = count;
            while (at > 0 && prefer_before(&web, can, r, s.options[i][at - 1])) {
                s.options[i][at] = s.options[i][at - 1];
                at--;
            }
            s.options[i][at] = r;
            count++;
        }
        s.option_count[i] = count;
    }
    /* order: positions with options, by (number of options, position) */
    for (int i = 0; i < n; i++) {
        if (!s.option_count[i]) continue;
        int at = s.size;
        while (at > 0 && s.option_count[s.order[at - 1]] > s.option_count[i]) {
            s.order[at] = s.order[at - 1];
            at--;
        }
        s.order[at] = i;
        s.size++;
    }
    s.prey_can[C1] = can[P];
    s.prey_can[C2] = can[C1] | can[SD];
    s.prey_can[C3] = can[C2];
    s.prey_can[C4] = can[C3];
    for (int i = 0; i < n; i++) s.assigned[i] = -1;
    for (int d = 0; d < s.size; d++) s.unassigned |= (mask)1 << s.order[d];
    s.best_key[0] = s.best_key[1] = s.best_key[2] = -1;
    int64_t max_weight[MAX_CARDS], total = 0;
    for (int i = 0; i < n; i++) {
        max_weight[i] = 0;
        for (int k = 0; k < s.option_count[i]; k++) {
            int64_t w = web.weights[s.options[i][k]];
            if (k == 0 || w > max_weight[i]) max_weight[i] = w;
        }
        total += max_weight[i];
    }
    int all_health = can[P] && can[C1] && can[C2] && can[C3] && can[SD];
    s.ceiling[0] = s.size;
    s.ceiling[1] = all_health && s.size >= 5;
    s.ceiling[2] = total;
    s.can_p = can[P], s.can_c1 = can[C1], s.can_sd = can[SD], s.can_c2 = can[C2], s.can_c3 = can[C3];
    s.rest_weight[s.size] = 0;
    for (int d = s.size - 1; d >= 0; d--) s.rest_weight[d] = s.rest_weight[d + 1] + max_weight[s.order[d]];
    search(&s, 0, 0);
    if (!s.have_best) {  /* only when the budget ran out first: producers alone are always fed */
        int producers = 0;
        for (int i = 0; i < n; i++) {
            s.best[i] = -1;
            for (int k = 0; k < s.option_count[i]; k++)
                if (s.options[i][k] == P) s.best[i] = P;
            producers += s.best[i] == P;
        }
        s.best_key[1] = 0;
        s.best_key[2] = producers * web.weights[P];
    }
    PyObject *roles = roles_tuple(s.best, n);
    if (roles == NULL) return NULL;
    return Py_BuildValue("(NOL)", roles, s.best_key[1] ? Py_True : Py_False, (long long)s.best_key[2]);
}

/* ---- _alternatives ---- */

typedef struct {
    const Web *web;
    int n;
    const int *defs;
    int order[MAX_CARDS];
    int options[MAX_CARDS][MAX_PRINTED];
    int option_count[MAX_CARDS];
    mask can[ROLES];
    int assigned[MAX_CARDS];
    mask role_mask[ROLES];
    mask unassigned;
    int healthy;
    int64_t value;
    int64_t rest_low[MAX_CARDS + 1], rest_high[MAX_CARDS + 1];
    long nodes, limit;
    int most;                       /* MAX_ALTERNATIVES */
    int found[MAX_FOUND][MAX_CARDS], found_count;
} Alternatives;

/* arrange._same_copies, in place: each run of copies of one definition gets its roles in role order. */
static void same_copies(const int *defs, int n, int *roles) {
    int start = 0;
    while (start < n) {
        int end = start;
        while (end < n && defs[end] == defs[start]) end++;
        for (int a = start + 1; a < end; a++) {
            int r = roles[a], at = a;
            while (at > start && roles[at - 1] > r) {
                roles[at] = roles[at - 1];
                at--;
            }
            roles[at] = r;
        }
        start = end;
    }
}

/* found.setdefault(roles): appended unless already listed. */
static void remember(Alternatives *a, int *roles) {
    same_copies(a->defs, a->n, roles);
    for (int f = 0; f < a->found_count; f++)
        if (!memcmp(a->found[f], roles, sizeof(int) * a->n)) return;
    if (a->found_count < MAX_FOUND) memcpy(a->found[a->found_count++], roles, sizeof(int) * a->n);
}

static int all_fed(const Alternatives *a) {
    mask could[ROLES];
    for (int r = 0; r < ROLES; r++) could[r] = a->role_mask[r] | (a->unassigned & a->can[r]);
    mask producers = could[P];
    mask prey_of[ROLES] = {0, could[P], 0, could[C1] | could[SD], could[C2], could[C3]};
    for (int k = 0; k < a->n; k++) {
        int r = a->assigned[k];
        if (r < 0 || r == P) continue;
        if (r == SD) {
            if (!(producers & ~((mask)1 << k))) return 0;
        } else if (!(a->web->eats[k] & prey_of[r])) {
            return 0;
        }
    }
    return 1;
}

static void alternatives_search(Alternatives *a, int depth, int64_t weight) {
    a->nodes++;
    if (a->nodes > a->limit || a->found_count >= a->most) return;
    int64_t left = a->value - weight;
    if (!(a->rest_low[depth] <= left && left <= a->rest_high[depth])) return;
    if (a->healthy) {
        for (int h = 0; h < ROLES; h++)
            if (is_health(h) && !(a->role_mask[h] || (a->unassigned & a->can[h]))) return;
    }
    if (depth == a->n) {
        int roles[MAX_CARDS];
        memcpy(roles, a->assigned, sizeof(int) * a->n);
        remember(a, roles);
        return;
    }
    int i = a->order[depth];
    mask bit = (mask)1 << i;
    a->unassigned &= ~bit;
    for (int k = 0; k < a->option_count[i]; k++) {
        int r = a->options[i][k];
        a->assigned[i] = r;
        a->role_mask[r] |= bit;
        if (all_fed(a)) alternatives_search(a, depth + 1, weight + a->web->weights[r]);
        a->role_mask[r] &= ~bit;
    }
    a->assigned[i] = -1;
    a->unassigned |= bit;
}

static PyObject *alternatives(PyObject *module, PyObject *args) {
    PyObject *eats, *printed, *weights, *defs_in, *first_in;
    int healthy, most;
    long long value;
    long limit;
    if (!PyArg_ParseTuple(args, "OOOOOpLil", &eats, &printed, &weights, &defs_in, &first_in, &healthy, &value,
                          &most, &limit))
        return NULL;
    Web web;
    if (read_web(eats, printed, weights, &web) < 0) return NULL;
    int n = web.n;
    if (PySequence_Size(defs_in) != n || PySequence_Size(first_in) != n || most > MAX_FOUND || most < 1
        || value >= WEIGHT_LIMIT * MAX_CARDS || value <= -WEIGHT_LIMIT * MAX_CARDS) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "alternatives the kernel does not hold");
        return NULL;
    }
    static Alternatives a;
    memset(&a, 0, sizeof a);
    int defs[MAX_CARDS], first[MAX_CARDS];
    for (int i = 0; i < n; i++) {
        PyObject *d = PySequence_GetItem(defs_in, i);
        PyObject *f = d == NULL ? NULL : PySequence_GetItem(first_in, i);
        defs[i] = d == NULL ? -1 : (int)PyLong_AsLong(d);
        first[i] = f == NULL ? -1 : (int)PyLong_AsLong(f);
        Py_XDECREF(d);
        Py_XDECREF(f);
        if (PyErr_Occurred()) return NULL;
        if (first[i] < 0 || first[i] >= ROLES) {
            PyErr_SetString(PyExc_ValueError, "a role number out of range");
            return NULL;
        }
    }
    a.web = &web;
    a.n = n;
    a.defs = defs;
    a.healthy = healthy;
    a.value = value;
    a.limit = limit;
    a.most = most;
    feasible(&web, a.can);
    int64_t low[MAX_CARDS], high[MAX_CARDS];
    for (int i = 0; i < n; i++) {
        int count = 0;
        for (int k = 0; k < web.printed_count[i]; k++) {
            int r = web.printed[i][k];
            if (a.can[r] >> i & 1) a.options[i][count++] = r;
        }
        a.option_count[i] = count;
        if (!count) {  /* Python's min() of nothing: alternatives() never asks for such a web */
            PyErr_SetString(PyExc_ValueError, "a card without a role");
            return NULL;
        }
        low[i] = high[i] = web.weights[a.options[i][0]];
        for (int k = 1; k < count; k++) {
            int64_t w = web.weights[a.options[i][k]];
            if (w < low[i]) low[i] = w;
            if (w > high[i]) high[i] = w;
        }
        int at = i;
        while (at > 0 && a.option_count[a.order[at - 1]] > count) {
            a.order[at] = a.order[at - 1];
            at--;
        }
        a.order[at] = i;
    }
    a.rest_low[n] = a.rest_high[n] = 0;
    for (int d = n - 1; d >= 0; d--) {
        a.rest_low[d] = a.rest_low[d + 1] + low[a.order[d]];
        a.rest_high[d] = a.rest_high[d + 1] + high[a.order[d]];
    }
    for (int i = 0; i < n; i++) a.assigned[i] = -1;
    a.unassigned = n == 64 ? ~(mask)0 : ((mask)1 << n) - 1;
    remember(&a, first);
    alternatives_search(&a, 0, 0);
    PyObject *result = PyTuple_New(a.found_count);
    if (result == NULL) return NULL;
    for (int f = 0; f < a.found_count; f++) {
        PyObject *roles = roles_tuple(a.found[f], n);
        if (roles == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, f, roles);
    }
    return result;
}

/* ---- masks ---- */

/* masks(eats_def, lives, defs) -> (eats, printed): web_masks.masks for a web of at most MAX_CARDS cards; per position,
 * the positions it eats (whatever holds a copy of a definition in its eats_def set) and its solver roles. */
static PyObject *masks(PyObject *module, PyObject *args) {
    PyObject *eats_def, *lives, *defs;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyTuple_Type, &eats_def, &PyTuple_Type, &lives, &PyTuple_Type, &defs))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(defs);
    if (n > MAX_CARDS) {
        PyErr_SetString(PyExc_ValueError, "more cards than the kernel holds");
        return NULL;
    }
    long def[MAX_CARDS];
    mask copies[MAX_CARDS];  /* per position, the positions holding its definition */
    for (Py_ssize_t i = 0; i < n; i++) {
        def[i] = PyLong_AsLong(PyTuple_GET_ITEM(defs, i));
        if (def[i] == -1 && PyErr_Occurred()) return NULL;
        if (def[i] < 0 || def[i] >= PyTuple_GET_SIZE(eats_def) || def[i] >= PyTuple_GET_SIZE(lives)) {
            PyErr_SetString(PyExc_ValueError, "a definition outside the table");
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        copies[i] = 0;
        for (Py_ssize_t j = 0; j < n; j++)
            if (def[j] == def[i]) copies[i] |= (mask)1 << j;
    }
    PyObject *eats = PyList_New(n), *printed = PyList_New(n);
    if (eats == NULL || printed == NULL) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *prey = PyTuple_GET_ITEM(eats_def, def[i]);
        if (!PyAnySet_Check(prey)) {
            PyErr_SetString(PyExc_ValueError, "eats_def holds sets");
            goto fail;
        }
        mask m = 0;
        for (Py_ssize_t j = 0; j < n; j++) {
            if (copies[j] & (((mask)1 << j) - 1)) continue;  /* a definition once, at its first position */
            int eaten = PySet_Contains(prey, PyTuple_GET_ITEM(defs, j));
            if (eaten < 0) goto fail;
            if (eaten) m |= copies[j];
        }
        PyObject *value = PyLong_FromUnsignedLongLong(m);
        if (value == NULL) goto fail;
        PyList_SET_ITEM(eats, i, value);
        PyList_SET_ITEM(printed, i, Py_NewRef(PyTuple_GET_ITEM(lives, def[i])));
    }
    PyObject *result = PyTuple_Pack(2, eats, printed);
    Py_DECREF(eats);
    Py_DECREF(printed);
    return result;
fail:
    Py_XDECREF(eats);
    Py_XDECREF(printed);
    return NULL;
}

static PyMethodDef module_methods[] = {
    {"masks", masks, METH_VARARGS,
     "masks(eats_def, lives, defs) -> (eats, printed): web_masks.masks, the web as solve and alternatives take it."},
    {"solve", solve, METH_VARARGS,
     "solve(eats, printed, weights, budget) -> (roles, healthy, value): arrange._solve's search, roles as numbers."},
    {"alternatives", alternatives, METH_VARARGS,
     "alternatives(eats, printed, weights, defs, first, healthy, value, most, limit) -> role-number tuples: "
     "arrange._alternatives."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ecologies", "The Ecologies arrangement solver, in C.", -1, module_methods, NULL, NULL,
    NULL, NULL,
};

PyMODINIT_FUNC PyInit__ecologies(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "KERNEL_VERSION", KERNEL_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
