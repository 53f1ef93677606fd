/* Ecologies' engine steps in C, on the Python state: `observe` (view.observe) and `legal` (rules.legal_actions
 * for the main phases and an offer's answers), which stay the readable reference.
 *
 * Both read the EcologiesState and its CardTable as Python objects and build the same Python objects the
 * reference builds (the same shared action instances, in the same order). What reads more of the rules
 * (a free play, a factor card's plays, bonuses, an arrangement the fast test cannot decide) is asked
 * of the reference functions `bind` registered; `legal` returns None for a choice it does not list (Python
 * lists it). cardtool/games/ecologies/steps.py dispatches to it; tests/test_ecologies_accel_greedy.py
 * compares both at every step of many games.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

/* Bump with any change to what the kernel computes or takes: the Python side refuses another version. */
#define KERNEL_VERSION 4

enum { R_P = 0, R_C1, R_SD, R_C2, R_C3, R_C4, ROLES };
/* Per role, the roles its prey may act in (arrange.PREY_ROLES), as bitmasks of role numbers. */
static const int PREY_MASK[ROLES] = {0, 1 << R_P, 0, (1 << R_C1) | (1 << R_SD), 1 << R_C2, 1 << R_C3};

/* What `bind` registered: the reference functions and shared objects. */
static PyObject *Legal, *END_PHASE, *DECLINE, *AcceptType, *BuyWithType, *DestroyType, *ObservationType;
static PyObject *MoveType;
static PyObject *is_free_fn, *factor_plays_fn, *bonuses_fn, *play_action_fn, *offers_by_card_fn, *fits_fn,
    *per_card_fn;
static PyObject *role_names[ROLES];
static int bound = 0;

static PyObject *S_game, *S_table, *S_over, *S_stack, *S_turn, *S_players, *S_mode, *S_phase, *S_hands, *S_ecos,
    *S_offers, *S_plays_used, *S_ongoing, *S_kind, *S_biomes, *S_roles, *S_def_of, *S_eats_def, *S_card_actions,
    *S_offers_by_card, *S_want, *S_deck, *S_known, *S_discard, *S_table_factors, *S_limbo, *S_counters,
    *S_own_turns, *S_moved, *S_played, *S_quiet, *S_dict, *S_single, *S_multi, *S_trade, *S_play, *S_purchase,
    *S_organism, *S_biome, *S_offer, *S_extra_play, *S_free_play, *S_amount, *S_effect, *S_active, *S_trigger,
    *S_activated, *S__active, *S__forces;
static PyObject *F_seat, *F_current_player, *F_hand, *F_hand_sizes, *F_deck_size, *F_ecologies;
static PyObject *empty_tuple;

static int same_str(PyObject *a, PyObject *b) {
    if (a == b) return 1;
    if (!PyUnicode_Check(a)) return 0;
    return PyUnicode_Compare(a, b) == 0;
}

/* A role name's number (-1: not a role). */
static int role_number(PyObject *name) {
    for (int r = 0; r < ROLES; r++)
        if (name == role_names[r]) return r;
    for (int r = 0; r < ROLES; r++)
        if (PyUnicode_Check(name) && PyUnicode_Compare(name, role_names[r]) == 0) return r;
    return -1;
}

/* The state's class and where its slots lie: attr() reads a slot of a state of exactly that class at its offset,
 * which is what PyObject_GetAttr finds there (a __slots__ class: its member descriptor), less the lookup. */
#define MAX_SLOTS 32
static PyObject *StateType;
static PyObject *slot_names[MAX_SLOTS];
static Py_ssize_t slot_offsets[MAX_SLOTS];
static int nslots = 0;

static int bind_slots(PyObject *type, PyObject *const *names, int count) {
    if (!PyType_Check(type)) {
        PyErr_SetString(PyExc_TypeError, "the state's class");
        return -1;
    }
    Py_XSETREF(StateType, Py_NewRef(type));
    nslots = 0;
    for (int i = 0; i < count && nslots < MAX_SLOTS; i++) {
        PyObject *descr = _PyType_Lookup((PyTypeObject *)type, names[i]);
        if (descr == NULL || !Py_IS_TYPE(descr, &PyMemberDescr_Type)) continue;  /* not a slot: GetAttr reads it */
        PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
        if (member->type != T_OBJECT_EX || member->flags & READONLY) continue;
        slot_names[nslots] = names[i];
        slot_offsets[nslots++] = member->offset;
    }
    return 0;
}

/* bind(Legal, END_PHASE, DECLINE, Accept, BuyWith, DestroyEcology, Observation, is_free, factor_plays, Move,
 *      bonuses, play_action, offers_by_card, fits, per_card, EcologiesState, role_names) */
static PyObject *bind(PyObject *module, PyObject *args) {
    PyObject *objs[15], *state_type, *names;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOOO!", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4], &objs[5],
                          &objs[6], &objs[7], &objs[8], &objs[9], &objs[10], &objs[11], &objs[12], &objs[13],
                          &objs[14], &state_type, &PyTuple_Type, &names))
        return NULL;
    PyObject *const read[] = {S_game, S_over, S_stack, S_turn, S_hands, S_counters, S_phase, S_plays_used,
                              S_offers, S_known, S_deck, S_discard, S_ecos, S_table_factors, S_limbo, S_own_turns,
                              S_moved, S_played, S_quiet, S__forces, S__active};
    if (bind_slots(state_type, read, (int)(sizeof read / sizeof read[0])) < 0) return NULL;
    if (PyTuple_GET_SIZE(names) != ROLES) {
        PyErr_SetString(PyExc_ValueError, "six role names");
        return NULL;
    }
    PyObject **slots[15] = {&Legal, &END_PHASE, &DECLINE, &AcceptType, &BuyWithType, &DestroyType, &ObservationType,
                            &is_free_fn, &factor_plays_fn, &MoveType, &bonuses_fn, &play_action_fn,
                            &offers_by_card_fn, &fits_fn, &per_card_fn};
    for (int i = 0; i < 15; i++) Py_XSETREF(*slots[i], Py_NewRef(objs[i]));
    for (int r = 0; r < ROLES; r++) Py_XSETREF(role_names[r], Py_NewRef(PyTuple_GET_ITEM(names, r)));
    bound = 1;
    Py_RETURN_NONE;
}

/* ---- observe */

static int put(PyObject *d, PyObject *key, PyObject *value) {
    if (value == NULL) return -1;
    int rc = PyDict_SetItem(d, key, value);
    Py_DECREF(value);
    return rc;
}

static PyObject *attr(PyObject *obj, PyObject *name) {
    if ((PyObject *)Py_TYPE(obj) == StateType)
        for (int i = 0; i < nslots; i++)
            if (slot_names[i] == name) {
                PyObject *value = *(PyObject **)((char *)obj + slot_offsets[i]);
                if (value != NULL) return Py_NewRef(value);
                break;  /* unset: GetAttr raises the AttributeError */
            }
    return PyObject_GetAttr(obj, name);
}

static PyObject *as_tuple(PyObject *obj, PyObject *name) {
    PyObject *v = attr(obj, name);
    if (v == NULL) return NULL;
    PyObject *t = PySequence_Tuple(v);
    Py_DECREF(v);
    return t;
}

static PyObject *sorted_tuple(PyObject *seq) {
    PyObject *list = PySequence_List(seq);
    if (list == NULL) return NULL;
    if (PyList_Sort(list) < 0) { Py_DECREF(list); return NULL; }
    PyObject *t = PyList_AsTuple(list);
    Py_DECREF(list);
    return t;
}

/* observe(state, seat) -> Observation: view.observe. */
static PyObject *observe(PyObject *module, PyObject *args) {
    PyObject *state, *seat;
    if (!PyArg_ParseTuple(args, "OO", &state, &seat)) return NULL;
    if (!bound) { PyErr_SetString(PyExc_RuntimeError, "bind() first"); return NULL; }
    PyObject *d = _PyDict_NewPresized(24), *game = NULL, *over = NULL, *stack = NULL, *turn = NULL, *players = NULL,
             *hands = NULL, *counters = NULL, *v;
    if (d == NULL) return NULL;
    if ((game = attr(state, S_game)) == NULL || (over = attr(state, S_over)) == NULL
        || (stack = attr(state, S_stack)) == NULL || (turn = attr(state, S_turn)) == NULL
        || (players = attr(game, S_players)) == NULL || (hands = attr(state, S_hands)) == NULL
        || (counters = attr(state, S_counters)) == NULL)
        goto fail;
    if (!PyList_Check(stack) || !PyList_Check(hands) || !PyDict_Check(counters)) {
        PyErr_SetString(PyExc_TypeError, "a state of another shape");
        goto fail;
    }
    int is_over = PyObject_IsTrue(over);
    if (is_over < 0) goto fail;
    if (PyDict_SetItem(d, F_seat, seat) < 0 || put(d, S_mode, attr(game, S_mode)) < 0
        || PyDict_SetItem(d, S_players, players) < 0 || PyDict_SetItem(d, S_turn, turn) < 0)
        goto fail;
    Py_ssize_t depth = PyList_GET_SIZE(stack);
    if (is_over) v = PyLong_FromLong(-1);
    else if (depth) v = PySequence_GetItem(PyList_GET_ITEM(stack, depth - 1), 1);
    else v = PyNumber_Remainder(turn, players);
    if (put(d, F_current_player, v) < 0 || put(d, S_phase, attr(state, S_phase)) < 0
        || put(d, S_plays_used, attr(state, S_plays_used)) < 0 || put(d, S_offers, attr(state, S_offers)) < 0)
        goto fail;
    PyObject *hand = PyObject_GetItem(hands, seat);
    if (hand == NULL) goto fail;
    v = sorted_tuple(hand);
    Py_DECREF(hand);
    if (put(d, F_hand, v) < 0) goto fail;
    Py_ssize_t nseats = PyList_GET_SIZE(hands);
    PyObject *sizes = PyTuple_New(nseats);
    if (sizes == NULL) goto fail;
    for (Py_ssize_t s = 0; s < nseats; s++) {
        Py_ssize_t n = PyObject_Length(PyList_GET_ITEM(hands, s));
        PyObject *len = n < 0 ? NULL : PyLong_FromSsize_t(n);
        if (len == NULL) { Py_DECREF(sizes); goto fail; }
        PyTuple_SET_ITEM(sizes, s, len);
    }
    if (put(d, F_hand_sizes, sizes) < 0 || put(d, S_known, as_tuple(state, S_known)) < 0) goto fail;
    PyObject *deck = attr(state, S_deck);
    if (deck == NULL) goto fail;
    Py_ssize_t ndeck = PyObject_Length(deck);
    Py_DECREF(deck);
    if (ndeck < 0 || put(d, F_deck_size, PyLong_FromSsize_t(ndeck)) < 0) goto fail;
    if (put(d, S_discard, as_tuple(state, S_discard)) < 0) goto fail;
    PyObject *ecos = attr(state, S_ecos);
    if (ecos == NULL) goto fail;
    if (!PyDict_Check(ecos)) { Py_DECREF(ecos); PyErr_SetString(PyExc_TypeError, "ecos"); goto fail; }
    PyObject *values = PyDict_Values(ecos);
    Py_DECREF(ecos);
    if (values == NULL) goto fail;
    v = PyList_AsTuple(values);
    Py_DECREF(values);
    if (put(d, F_ecologies, v) < 0 || put(d, S_table_factors, attr(state, S_table_factors)) < 0
        || put(d, S_limbo, as_tuple(state, S_limbo)) < 0)
        goto fail;
    if (PyDict_GET_SIZE(counters)) {
        PyObject *items = PyDict_Items(counters);
        if (items == NULL) goto fail;
        if (PyList_Sort(items) < 0) { Py_DECREF(items); goto fail; }
        v = PyList_AsTuple(items);
        Py_DECREF(items);
    } else {
        v = Py_NewRef(empty_tuple);
    }
    if (put(d, S_counters, v) < 0 || put(d, S_own_turns, as_tuple(state, S_own_turns)) < 0
        || put(d, S_moved, attr(state, S_moved)) < 0 || put(d, S_played, attr(state, S_played)) < 0
        || put(d, S_quiet, attr(state, S_quiet)) < 0 || put(d, S_stack, PyList_AsTuple(stack)) < 0
        || PyDict_SetItem(d, S_over, over) < 0)
        goto fail;
    PyObject *seen = PyBaseObject_Type.tp_new((PyTypeObject *)ObservationType, empty_tuple, NULL);
    if (seen == NULL) goto fail;
    if (PyObject_GenericSetAttr(seen, S_dict, d) < 0) { Py_DECREF(seen); goto fail; }
    Py_DECREF(d);
    Py_DECREF(game); Py_DECREF(over); Py_DECREF(stack); Py_DECREF(turn); Py_DECREF(players); Py_DECREF(hands);
    Py_DECREF(counters);
    return seen;
fail:
    Py_DECREF(d);
    Py_XDECREF(game); Py_XDECREF(over); Py_XDECREF(stack); Py_XDECREF(turn); Py_XDECREF(players);
    Py_XDECREF(hands); Py_XDECREF(counters);
    return NULL;
}

/* ---- legal */

/* What one call of `legal` reads of the state and its table (borrowed from the held references). */
typedef struct {
    PyObject *state, *table, *kind, *biomes, *printed, *def_of, *eats_def, *card_actions;
    PyObject *seat_obj;
    long seat;
} Ctx;

static long tuple_long(PyObject *tuple, Py_ssize_t i) {
    return PyLong_AsLong(PyTuple_GET_ITEM(tuple, i));
}

/* arrange.fits_with for an ecology (an Eco) and a card: 1, 0, or -1 on an error. */
static int fits_with(Ctx *c, PyObject *eco, PyObject *card_obj, long card) {
    PyObject *code = PyTuple_GET_ITEM(eco, 2), *cards = PyTuple_GET_ITEM(eco, 3), *roles = PyTuple_GET_ITEM(eco, 4);
    int lives = PySequence_Contains(PyTuple_GET_ITEM(c->biomes, card), code);
    if (lives <= 0) return lives;
    PyObject *printed = PyTuple_GET_ITEM(c->printed, card);
    PyObject *prey = PyTuple_GET_ITEM(c->eats_def, tuple_long(c->def_of, card));
    Py_ssize_t n = PyTuple_GET_SIZE(cards);
    if (PyTuple_GET_SIZE(roles) != n) { PyErr_SetString(PyExc_ValueError, "roles"); return -1; }
    int could = 0;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(printed); k++) {
        int role = role_number(PyTuple_GET_ITEM(printed, k));
        if (role < 0) { PyErr_SetString(PyExc_ValueError, "a role"); return -1; }
        if (role == R_P) return 1;
        if (role == R_SD) {
            for (Py_ssize_t i = 0; i < n; i++)
                if (role_number(PyTuple_GET_ITEM(roles, i)) == R_P) return 1;
            if (!could)
                for (Py_ssize_t i = 0; i < n && !could; i++) {
                    PyObject *other = PyTuple_GET_ITEM(c->printed, PyLong_AsLong(PyTuple_GET_ITEM(cards, i)));
                    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(other); j++)
                        if (role_number(PyTuple_GET_ITEM(other, j)) == R_P) { could = 1; break; }
                }
            continue;
        }
        int prey_roles = PREY_MASK[role];
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *other_obj = PyTuple_GET_ITEM(cards, i);
            long other = PyLong_AsLong(other_obj);
            if (other == card) continue;
            int eats = PySet_Contains(prey, PyTuple_GET_ITEM(c->def_of, other));
            if (eats < 0) return -1;
            if (!eats) continue;
            int acting = role_number(PyTuple_GET_ITEM(roles, i));
            if (acting >= 0 && prey_roles >> acting & 1) return 1;
            if (!could) {
                PyObject *theirs = PyTuple_GET_ITEM(c->printed, other);
                for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(theirs); j++) {
                    int r = role_number(PyTuple_GET_ITEM(theirs, j));
                    if (r >= 0 && prey_roles >> r & 1) { could = 1; break; }
                }
            }
        }
    }
    if (!could) return 0;
    PyObject *more = PyTuple_New(n + 1);
    if (more == NULL) return -1;
    for (Py_ssize_t i = 0; i < n; i++) PyTuple_SET_ITEM(more, i, Py_NewRef(PyTuple_GET_ITEM(cards, i)));
    PyTuple_SET_ITEM(more, n, Py_NewRef(card_obj));
    PyObject *r = PyObject_CallFunctionObjArgs(fits_fn, c->table, code, more, NULL);
    Py_DECREF(more);
    if (r == NULL) return -1;
    int ok = PyObject_IsTrue(r);
    Py_DECREF(r);
    return ok;
}

/* rules.play_action: the shared Play of a card onto an ecology (-1: none). */
static PyObject *play_action(Ctx *c, PyObject *card, PyObject *ecology) {
    PyObject *key = PyTuple_Pack(2, card, ecology);
    if (key == NULL) return NULL;
    PyObject *found = PyDict_GetItemWithError(c->card_actions, key);
    Py_DECREF(key);
    if (found != NULL) return Py_NewRef(found);
    if (PyErr_Occurred()) return NULL;
    return PyObject_CallFunctionObjArgs(play_action_fn, c->table, card, ecology, NULL);
}

static int append_new(PyObject *list, PyObject *item) {
    if (item == NULL) return -1;
    int rc = PyList_Append(list, item);
    Py_DECREF(item);
    return rc;
}

static int extend_new(PyObject *list, PyObject *items) {
    if (items == NULL) return -1;
    int rc = PyList_SetSlice(list, PY_SSIZE_T_MAX, PY_SSIZE_T_MAX, items);
    Py_DECREF(items);
    return rc;
}

/* per_card(table, cls): the shared cls(card) of every card. */
static PyObject *per_card(Ctx *c, PyObject *cls) {
    PyObject *found = PyDict_GetItemWithError(c->card_actions, cls);
    if (found != NULL && PyTuple_Check(found)) return Py_NewRef(found);
    if (PyErr_Occurred()) return NULL;
    return PyObject_CallFunctionObjArgs(per_card_fn, c->table, cls, NULL);
}

/* state.ongoing(seat, word): read from its memo (forces.InForce.ongoing's state._forces["ongoing"], by (word, seat))
 * when it is made, else asked of the method, which makes it. */
static PyObject *ongoing(Ctx *c, PyObject *word) {
    PyObject *forces = attr(c->state, S__forces);
    if (forces == NULL) return NULL;
    PyObject *by_word = PyDict_Check(forces) ? PyDict_GetItemWithError(forces, S_ongoing) : NULL;
    if (by_word != NULL && PyDict_Check(by_word)) {
        PyObject *key = PyTuple_Pack(2, word, c->seat_obj);
        PyObject *found = key == NULL ? NULL : PyDict_GetItemWithError(by_word, key);
        Py_XDECREF(key);
        Py_DECREF(forces);
        if (found != NULL) return Py_NewRef(found);
        return PyErr_Occurred() ? NULL : Py_NewRef(empty_tuple);
    }
    Py_DECREF(forces);
    if (PyErr_Occurred()) return NULL;
    return PyObject_CallMethodObjArgs(c->state, S_ongoing, c->seat_obj, word, NULL);
}

/* rules.offers */
static int add_offers(Ctx *c, PyObject *out, PyObject *hand_sorted, PyObject *mode) {
    PyObject *made = attr(c->state, S_offers);
    if (made == NULL) return -1;
    int rc = -1;
    PyObject *by_card = NULL;
    if (!PyTuple_Check(made)) { PyErr_SetString(PyExc_TypeError, "offers"); goto done; }
    if (PyTuple_GET_SIZE(made) >= 3 || PyList_GET_SIZE(hand_sorted) == 0 || same_str(mode, S_single)) {
        rc = 0;
        goto done;
    }
    by_card = attr(c->table, S_offers_by_card);
    if (by_card == NULL) goto done;
    if (by_card == Py_None) {
        Py_DECREF(by_card);
        by_card = PyObject_CallOneArg(offers_by_card_fn, c->table);
        if (by_card == NULL) goto done;
    }
    if (!PyTuple_Check(by_card)) { PyErr_SetString(PyExc_TypeError, "offers_by_card"); goto done; }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(hand_sorted); i++) {
        PyObject *card = PyList_GET_ITEM(hand_sorted, i);
        PyObject *offers = PyTuple_GET_ITEM(by_card, PyLong_AsLong(card));
        int offered = 0;
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(made); k++) {
            int eq = PyObject_RichCompareBool(PyTuple_GET_ITEM(PyTuple_GET_ITEM(made, k), 0), card, Py_EQ);
            if (eq < 0) goto done;
            if (eq) { offered = 1; break; }
        }
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(offers); j++) {
            PyObject *offer = PyTuple_GET_ITEM(offers, j);
            if (offered) {
                PyObject *want = attr(offer, S_want);
                if (want == NULL) goto done;
                int taken = 0;
                for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(made) && !taken; k++) {
                    PyObject *pair = PyTuple_GET_ITEM(made, k);
                    int a = PyObject_RichCompareBool(PyTuple_GET_ITEM(pair, 0), card, Py_EQ);
                    int b = a > 0 ? PyObject_RichCompareBool(PyTuple_GET_ITEM(pair, 1), want, Py_EQ) : 0;
                    if (a < 0 || b < 0) { Py_DECREF(want); goto done; }
                    taken = a && b;
                }
                Py_DECREF(want);
                if (taken) continue;
            }
            if (PyList_Append(out, offer) < 0) goto done;
        }
    }
    rc = 0;
done:
    Py_DECREF(made);
    Py_XDECREF(by_card);
    return rc;
}

/* rules.plays_left > 0 */
static int plays_left(Ctx *c) {
    PyObject *extra = ongoing(c, S_extra_play);
    if (extra == NULL) return -1;
    long total = 2;
    PyObject *it = PyObject_GetIter(extra);
    Py_DECREF(extra);
    if (it == NULL) return -1;
    PyObject *active;
    while ((active = PyIter_Next(it)) != NULL) {
        PyObject *effect = PySequence_GetItem(active, 3);
        Py_DECREF(active);
        if (effect == NULL) { Py_DECREF(it); return -1; }
        PyObject *amount = attr(effect, S_amount);
        Py_DECREF(effect);
        if (amount == NULL) { Py_DECREF(it); return -1; }
        total += PyLong_AsLong(amount);
        Py_DECREF(amount);
    }
    Py_DECREF(it);
    if (PyErr_Occurred()) return -1;
    PyObject *used = attr(c->state, S_plays_used);
    if (used == NULL) return -1;
    total -= PyLong_AsLong(used);
    Py_DECREF(used);
    if (PyErr_Occurred()) return -1;
    return total > 0;
}

/* rules.plays */
static int add_plays(Ctx *c, PyObject *out, PyObject *hand_sorted, PyObject *own, int free_only) {
    int left = 0;
    if (!free_only) {
        left = plays_left(c);
        if (left < 0) return -1;
    }
    PyObject *free = ongoing(c, S_free_play);
    if (free == NULL) return -1;
    int any_free = PyObject_IsTrue(free);
    Py_DECREF(free);
    if (any_free < 0) return -1;
    if (!left && !any_free) return 0;
    Py_ssize_t nhand = PyList_GET_SIZE(hand_sorted);
    for (Py_ssize_t i = 0; i < nhand; i++) {
        PyObject *card_obj = PyList_GET_ITEM(hand_sorted, i);
        long card = PyLong_AsLong(card_obj);
        if (!left) {
            PyObject *r = PyObject_CallFunctionObjArgs(is_free_fn, c->state, c->seat_obj, card_obj, NULL);
            if (r == NULL) return -1;
            int is = PyObject_IsTrue(r);
            Py_DECREF(r);
            if (is < 0) return -1;
            if (!is) continue;
        }
        PyObject *kind = PyTuple_GET_ITEM(c->kind, card);
        if (same_str(kind, S_biome)) {
            PyObject *none = PyLong_FromLong(-1);
            if (none == NULL) return -1;
            int rc = append_new(out, play_action(c, card_obj, none));
            Py_DECREF(none);
            if (rc < 0) return -1;
        } else if (same_str(kind, S_organism)) {
            for (Py_ssize_t k = 0; k < PyList_GET_SIZE(own); k++) {
                PyObject *eco = PyList_GET_ITEM(own, k);
                int f = fits_with(c, eco, card_obj, card);
                if (f < 0) return -1;
                if (f && append_new(out, play_action(c, card_obj, PyTuple_GET_ITEM(eco, 0))) < 0) return -1;
            }
        } else {
            PyObject *after = PyLong_FromSsize_t(nhand - 1);
            if (after == NULL) return -1;
            PyObject *r = PyObject_CallFunctionObjArgs(factor_plays_fn, c->state, c->seat_obj, card_obj, after, NULL);
            Py_DECREF(after);
            if (extend_new(out, r) < 0) return -1;
        }
    }
    return 0;
}

/* rules.purchases */
static int add_purchases(Ctx *c, PyObject *out, PyObject *hand_sorted, PyObject *own, PyObject *mode) {
    if (PyList_GET_SIZE(hand_sorted) >= 4) {
        PyObject *deck = attr(c->state, S_deck);
        if (deck == NULL) return -1;
        int can = PyObject_IsTrue(deck);
        Py_DECREF(deck);
        if (can < 0) return -1;
        if (!can) can = same_str(mode, S_multi);  /* state.can_reshuffle() */
        if (can) {
            PyObject *buy = per_card(c, BuyWithType);
            if (buy == NULL) return -1;
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(hand_sorted); i++)
                if (PyList_Append(out, PyTuple_GET_ITEM(buy, PyLong_AsLong(PyList_GET_ITEM(hand_sorted, i)))) < 0) {
                    Py_DECREF(buy);
                    return -1;
                }
            Py_DECREF(buy);
        }
    }
    PyObject *destroy = per_card(c, DestroyType);
    if (destroy == NULL) return -1;
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(own); k++) {
        PyObject *eco = PyList_GET_ITEM(own, k);
        if (1 + PyTuple_GET_SIZE(PyTuple_GET_ITEM(eco, 3)) >= 3
            && PyList_Append(out, PyTuple_GET_ITEM(destroy, tuple_long(eco, 0))) < 0) {
            Py_DECREF(destroy);
            return -1;
        }
    }
    Py_DECREF(destroy);
    return 0;
}

/* rules.moves for a seat owning two ecologies or more (`own`): each organism not acting as P and not moved this
 * turn, to each other ecology of its owner it fits in (fits_with), when the web it leaves stays fed (fits). */
static int add_moves(Ctx *c, PyObject *out, PyObject *own) {
    PyObject *moved = attr(c->state, S_moved);
    if (moved == NULL) return -1;
    int rc = -1;
    Py_ssize_t n_own = PyList_GET_SIZE(own), n_targets;
    PyObject **targets = PyMem_New(PyObject *, n_own);
    if (targets == NULL) { PyErr_NoMemory(); goto done; }
    for (Py_ssize_t k = 0; k < n_own; k++) {
        PyObject *eco = PyList_GET_ITEM(own, k);
        PyObject *cards = PyTuple_GET_ITEM(eco, 3), *roles = PyTuple_GET_ITEM(eco, 4);
        Py_ssize_t n = PyTuple_GET_SIZE(cards);
        if (PyTuple_GET_SIZE(roles) != n) { PyErr_SetString(PyExc_ValueError, "roles"); goto done; }
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *card_obj = PyTuple_GET_ITEM(cards, i);
            if (role_number(PyTuple_GET_ITEM(roles, i)) == R_P) continue;
            int was = PySequence_Contains(moved, card_obj);
            if (was < 0) goto done;
            if (was) continue;
            long card = PyLong_AsLong(card_obj);
            n_targets = 0;
            for (Py_ssize_t j = 0; j < n_own; j++) {
                PyObject *other = PyList_GET_ITEM(own, j);
                if (other == eco) continue;
                int f = fits_with(c, other, card_obj, card);  /* tests first that the card lives in its biome */
                if (f < 0) goto done;
                if (f) targets[n_targets++] = other;
            }
            if (!n_targets) continue;
            PyObject *kept = PyList_New(0);  /* the web's cards but this one */
            if (kept == NULL) goto done;
            for (Py_ssize_t m = 0; m < n; m++) {
                int same = PyObject_RichCompareBool(PyTuple_GET_ITEM(cards, m), card_obj, Py_EQ);
                if (same < 0 || (!same && PyList_Append(kept, PyTuple_GET_ITEM(cards, m)) < 0)) {
                    Py_DECREF(kept);
                    goto done;
                }
            }
            PyObject *rest = PyList_AsTuple(kept);
            Py_DECREF(kept);
            if (rest == NULL) goto done;
            PyObject *r = PyObject_CallFunctionObjArgs(fits_fn, c->table, PyTuple_GET_ITEM(eco, 2), rest, NULL);
            Py_DECREF(rest);
            if (r == NULL) goto done;
            int stays = PyObject_IsTrue(r);
            Py_DECREF(r);
            if (stays < 0) goto done;
            if (!stays) continue;
            for (Py_ssize_t t = 0; t < n_targets; t++)
                if (append_new(out, PyObject_CallFunctionObjArgs(MoveType, card_obj, PyTuple_GET_ITEM(targets[t], 0),
                                                                 NULL)) < 0)
                    goto done;
        }
    }
    rc = 0;
done:
    PyMem_Free(targets);
    Py_DECREF(moved);
    return rc;
}

/* Whether rules.bonuses could list anything: an activated effect in force that this seat controls. */
static int may_use_bonus(Ctx *c) {
    PyObject *active = attr(c->state, S__active);  /* state.active()'s memo, when it is made */
    if (active == Py_None) {
        Py_DECREF(active);
        active = PyObject_CallMethodNoArgs(c->state, S_active);
    }
    if (active == NULL) return -1;
    if (!PyList_Check(active)) { Py_DECREF(active); return 1; }
    int found = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(active) && !found; i++) {
        PyObject *a = PyList_GET_ITEM(active, i);
        if (!PyTuple_Check(a) || PyTuple_GET_SIZE(a) < 4) { found = 1; break; }
        if (PyLong_AsLong(PyTuple_GET_ITEM(a, 0)) != c->seat) continue;
        PyObject *trigger = attr(PyTuple_GET_ITEM(a, 3), S_trigger);
        if (trigger == NULL) { Py_DECREF(active); return -1; }
        found = same_str(trigger, S_activated);
        Py_DECREF(trigger);
    }
    Py_DECREF(active);
    return PyErr_Occurred() ? -1 : found;
}

/* An offer's answers (rules.choice_options of an "offer" frame): Accept per acceptable card, then DECLINE. */
static PyObject *offer_answers(Ctx *c, PyObject *frame) {
    if (!PyTuple_Check(frame) || PyTuple_GET_SIZE(frame) < 5) Py_RETURN_NONE;
    PyObject *hands = attr(c->state, S_hands);
    if (hands == NULL) return NULL;
    PyObject *hand = PyObject_GetItem(hands, PyTuple_GET_ITEM(frame, 1));
    Py_DECREF(hands);
    if (hand == NULL) return NULL;
    PyObject *sorted = PySequence_List(hand);
    Py_DECREF(hand);
    if (sorted == NULL) return NULL;
    PyObject *out = NULL, *accept = NULL;
    if (PyList_Sort(sorted) < 0) goto done;
    PyObject *want = PyTuple_GET_ITEM(frame, 4);
    int any = PyObject_Not(want);
    if (any < 0 || (accept = per_card(c, AcceptType)) == NULL || (out = PyList_New(0)) == NULL) goto done;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(sorted); i++) {
        long card = PyLong_AsLong(PyList_GET_ITEM(sorted, i));
        if (!any) {
            int lives = PySequence_Contains(PyTuple_GET_ITEM(c->biomes, card), want);
            if (lives < 0) { Py_CLEAR(out); goto done; }
            if (!lives) continue;
        }
        if (PyList_Append(out, PyTuple_GET_ITEM(accept, card)) < 0) { Py_CLEAR(out); goto done; }
    }
    if (PyList_Append(out, DECLINE) < 0) Py_CLEAR(out);
done:
    Py_DECREF(sorted);
    Py_XDECREF(accept);
    return out;
}

/* legal(state) -> the legal actions (rules.legal_actions), or None when Python lists them. */
static PyObject *legal(PyObject *module, PyObject *state) {
    if (!bound) { PyErr_SetString(PyExc_RuntimeError, "bind() first"); return NULL; }
    PyObject *held[12] = {NULL};  /* game, table, kind, biomes, printed, def_of, eats_def, card_actions, stack,
                                     seat, hand, own */
    PyObject *result = NULL, *out = NULL, *mode = NULL, *phase = NULL;
    Ctx c = {.state = state};
    PyObject *over = attr(state, S_over);
    if (over == NULL) return NULL;
    int is_over = PyObject_IsTrue(over);
    Py_DECREF(over);
    if (is_over < 0) return NULL;
    if (is_over) return PyList_New(0);
    if ((held[0] = attr(state, S_game)) == NULL || (held[1] = c.table = attr(held[0], S_table)) == NULL
        || (held[2] = c.kind = attr(c.table, S_kind)) == NULL || (held[3] = c.biomes = attr(c.table, S_biomes)) == NULL
        || (held[4] = c.printed = attr(c.table, S_roles)) == NULL
        || (held[5] = c.def_of = attr(c.table, S_def_of)) == NULL
        || (held[6] = c.eats_def = attr(c.table, S_eats_def)) == NULL
        || (held[7] = c.card_actions = attr(c.table, S_card_actions)) == NULL
        || (held[8] = attr(state, S_stack)) == NULL)
        goto done;
    if (!PyTuple_Check(c.kind) || !PyTuple_Check(c.biomes) || !PyTuple_Check(c.printed) || !PyTuple_Check(c.def_of)
        || !PyTuple_Check(c.eats_def) || !PyDict_Check(c.card_actions) || !PyList_Check(held[8])) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    Py_ssize_t depth = PyList_GET_SIZE(held[8]);
    if (depth) {
        PyObject *frame = PyList_GET_ITEM(held[8], depth - 1);
        if (PyTuple_Check(frame) && PyTuple_GET_SIZE(frame) >= 1 && same_str(PyTuple_GET_ITEM(frame, 0), S_offer))
            result = offer_answers(&c, frame);
        else
            result = Py_NewRef(Py_None);
        goto done;
    }
    PyObject *turn = attr(state, S_turn), *players = attr(held[0], S_players);
    if (turn != NULL && players != NULL) held[9] = c.seat_obj = PyNumber_Remainder(turn, players);
    Py_XDECREF(turn);
    Py_XDECREF(players);
    if (c.seat_obj == NULL) goto done;
    c.seat = PyLong_AsLong(c.seat_obj);
    PyObject *hands = attr(state, S_hands);
    if (hands == NULL) goto done;
    PyObject *hand = PyObject_GetItem(hands, c.seat_obj);
    Py_DECREF(hands);
    if (hand == NULL) goto done;
    held[10] = PySequence_List(hand);
    Py_DECREF(hand);
    if (held[10] == NULL || PyList_Sort(held[10]) < 0) goto done;
    PyObject *ecos = attr(state, S_ecos);
    if (ecos == NULL) goto done;
    if (!PyDict_Check(ecos)) { Py_DECREF(ecos); result = Py_NewRef(Py_None); goto done; }
    held[11] = PyList_New(0);
    Py_ssize_t pos = 0;
    PyObject *key, *eco;
    while (held[11] != NULL && PyDict_Next(ecos, &pos, &key, &eco)) {
        if (!PyTuple_Check(eco) || PyTuple_GET_SIZE(eco) < 8) { Py_DECREF(ecos); result = Py_NewRef(Py_None); goto done; }
        if (PyLong_AsLong(PyTuple_GET_ITEM(eco, 1)) == c.seat && PyList_Append(held[11], eco) < 0) Py_CLEAR(held[11]);
    }
    Py_DECREF(ecos);
    if (held[11] == NULL) goto done;
    if ((mode = attr(held[0], S_mode)) == NULL || (phase = attr(state, S_phase)) == NULL) goto done;
    if ((out = PyObject_CallNoArgs(Legal)) == NULL) goto done;
    if (same_str(phase, S_trade) && add_offers(&c, out, held[10], mode) < 0) goto done;
    int playing = same_str(phase, S_play);
    if (add_plays(&c, out, held[10], held[11], !playing) < 0) goto done;
    if (playing && PyList_GET_SIZE(held[11]) >= 2 && add_moves(&c, out, held[11]) < 0) goto done;
    int bonus = may_use_bonus(&c);
    if (bonus < 0 || (bonus && extend_new(out, PyObject_CallFunctionObjArgs(bonuses_fn, state, c.seat_obj, NULL)) < 0))
        goto done;
    if (same_str(phase, S_purchase) && add_purchases(&c, out, held[10], held[11], mode) < 0) goto done;
    if (PyList_Append(out, END_PHASE) < 0) goto done;
    result = out;
    out = NULL;
done:
    Py_XDECREF(out);
    Py_XDECREF(mode);
    Py_XDECREF(phase);
    for (int i = 0; i < 12; i++) Py_XDECREF(held[i]);
    if (result == NULL && !PyErr_Occurred()) result = Py_NewRef(Py_None);
    return result;
}

static PyMethodDef module_methods[] = {
    {"bind", bind, METH_VARARGS, "bind(...): the reference functions and shared objects the steps use (steps.py)."},
    {"observe", observe, METH_VARARGS, "observe(state, seat) -> Observation: view.observe."},
    {"legal", legal, METH_O, "legal(state) -> rules.legal_actions(state), or None when Python lists them."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ecoengine", "Ecologies' engine steps, in C.", -1, module_methods, NULL, NULL, NULL, NULL,
};

#define INTERN(var, text) do { if ((var = PyUnicode_InternFromString(text)) == NULL) return NULL; } while (0)

PyMODINIT_FUNC PyInit__ecoengine(void) {
    INTERN(S_game, "game"); INTERN(S_table, "table"); INTERN(S_over, "over"); INTERN(S_stack, "stack");
    INTERN(S_turn, "turn"); INTERN(S_players, "players"); INTERN(S_mode, "mode"); INTERN(S_phase, "phase");
    INTERN(S_hands, "hands"); INTERN(S_ecos, "ecos"); INTERN(S_offers, "offers"); INTERN(S_plays_used, "plays_used");
    INTERN(S_ongoing, "ongoing"); INTERN(S_kind, "kind"); INTERN(S_biomes, "biomes"); INTERN(S_roles, "roles");
    INTERN(S_def_of, "def_of"); INTERN(S_eats_def, "eats_def"); INTERN(S_card_actions, "card_actions");
    INTERN(S_offers_by_card, "offers_by_card"); INTERN(S_want, "want"); INTERN(S_deck, "deck");
    INTERN(S_known, "known"); INTERN(S_discard, "discard"); INTERN(S_table_factors, "table_factors");
    INTERN(S_limbo, "limbo"); INTERN(S_counters, "counters"); INTERN(S_own_turns, "own_turns");
    INTERN(S_moved, "moved"); INTERN(S_played, "played"); INTERN(S_quiet, "quiet"); INTERN(S_dict, "__dict__");
    INTERN(S_single, "single"); INTERN(S_multi, "multi"); INTERN(S_trade, "trade"); INTERN(S_play, "play");
    INTERN(S_purchase, "purchase"); INTERN(S_organism, "organism"); INTERN(S_biome, "biome");
    INTERN(S_offer, "offer"); INTERN(S_extra_play, "extra_play"); INTERN(S_free_play, "free_play");
    INTERN(S_amount, "amount"); INTERN(S_effect, "effect");
    INTERN(S_active, "active"); INTERN(S__active, "_active"); INTERN(S__forces, "_forces");
    INTERN(S_trigger, "trigger"); INTERN(S_activated, "activated");
    INTERN(F_seat, "seat"); INTERN(F_current_player, "current_player"); INTERN(F_hand, "hand");
    INTERN(F_hand_sizes, "hand_sizes"); INTERN(F_deck_size, "deck_size"); INTERN(F_ecologies, "ecologies");
    if ((empty_tuple = PyTuple_New(0)) == NULL) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "KERNEL_VERSION", KERNEL_VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
