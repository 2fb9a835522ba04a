/* rt-unwind-cxx.cc: exit handlers on every function (as pfe-trace) while
 * C++ exceptions and pthread_exit leave traced frames (runtime.exp):
 *   catch         thrown two traced frames below the catch: caught, every
 *                 destructor run, std::terminate not called; the frames
 *                 that return get their exit call with the value, the ones
 *                 left get one with retregs NULL when the catch lands
 *   rethrow       caught, rethrown (throw;), caught further out
 *   pthread_exit  from a traced function of a thread: the destructors of
 *                 the traced frames above run, the exits of the frames
 *                 left are called, the thread's value is what it gave
 *   cancel        a thread cancelled at a cancellation point two traced
 *                 frames below the thread's first: glibc's own unwinder
 *                 (not libpfe's wrappers) runs every destructor above and
 *                 the exits of the frames left, each as the unwind leaves
 *                 its frame (cancel_middle's before cancel_outer's
 *                 destructor runs), or with exit sleds (PFE_WANT_SLEDS:
 *                 nothing diverted for the unwind to meet) when the
 *                 thread ends, after every destructor; the thread ends
 *                 canceled
 * Prints "ok" when every check holds.  Debug: run it with the case name;
 * each failed check prints what it counted.
 */
#include "rt-unwind.h"

#include <pthread.h>
#include <string.h>

static int dtors, caught, rethrows;

/* What is thrown: no library type (i386 has no 32-bit libstdc++ headers
 * here, runtime.exp). */
struct failure {
	int code = 1;
};

struct guard {
	~guard() { dtors++; }
};

TRACED void thrower(int x)
{
	guard g;

	if (x)
		throw failure();
}

TRACED int middle(int x)
{
	guard g;

	thrower(x);
	return 1;
}

TRACED int catcher(int x)
{
	try {
		return middle(x);
	} catch (const failure &) {
		caught++;
		return 2;
	}
}

TRACED int rethrower(int x)
{
	guard g;

	try {
		middle(x);
	} catch (...) {
		rethrows++;
		throw;
	}
	return 1;
}

TRACED int outer(int x)
{
	try {
		return rethrower(x);
	} catch (const failure &) {
		caught++;
		return 3;
	}
}

static void check_catch(void)
{
	struct watch *wc = watch("catcher", (void *)catcher), *wm = watch("middle", (void *)middle);
	struct watch *wt = watch("thrower", (void *)thrower);
	int sum = 0;

	trace_all();
	for (int i = 0; i < 100; i++)
		sum += catcher(1) + catcher(0);
	CHECK(sum == 300 && caught == 100 && dtors == 400, "sum %d, caught %d, dtors %d", sum, caught, dtors);
	CHECK_COUNTS(wc, 200, 200, 0);
	CHECK_COUNTS(wm, 200, 100, 100);
	CHECK_COUNTS(wt, 200, 100, 100);
	CHECK(wc->retval == 1, "catcher's last return value %lu", (unsigned long)wc->retval);
}

static void check_rethrow(void)
{
	struct watch *wo = watch("outer", (void *)outer), *wr = watch("rethrower", (void *)rethrower);
	struct watch *wm = watch("middle", (void *)middle);
	int sum = 0;

	trace_all();
	for (int i = 0; i < 100; i++)
		sum += outer(1) + outer(0);
	CHECK(sum == 400 && caught == 100 && rethrows == 100 && dtors == 600, "sum %d, caught %d, rethrows %d, dtors %d",
	      sum, caught, rethrows, dtors);
	CHECK_COUNTS(wo, 200, 200, 0);
	CHECK_COUNTS(wr, 200, 100, 100);
	CHECK_COUNTS(wm, 200, 100, 100);
}

TRACED void exit_inner(int x)
{
	if (x)
		pthread_exit((void *)42);
}

TRACED int exit_outer(int x)
{
	guard g;

	exit_inner(x);
	return 0;
}

static void *exit_thread(void *arg)
{
	exit_outer(arg != NULL);
	return NULL;
}

static void check_pthread_exit(void)
{
	struct watch *wi = watch("exit_inner", (void *)exit_inner), *wo = watch("exit_outer", (void *)exit_outer);
	pthread_t t;
	void *value = NULL;

	trace_all();
	for (int i = 0; i < 10; i++) {
		CHECK(pthread_create(&t, NULL, exit_thread, (void *)1) == 0, "pthread_create");
		CHECK(pthread_join(t, &value) == 0 && value == (void *)42, "thread %d gave %p, want 42", i, value);
	}
	CHECK(dtors == 10, "%d destructors run, want 10", dtors);
	CHECK_COUNTS(wi, 10, 0, 10);
	CHECK_COUNTS(wo, 10, 0, 10);
}

TRACED int cancel_inner(int x)
{
	cancel_started = 1;
	for (;;)
		pause();
	return x;
}

TRACED int cancel_middle(int x)
{
	guard g;

	return cancel_inner(x) + 1;
}

/* cancel_outer's destructor: whether cancel_middle's exit was called
 * when the unwind left it (its frame's left count caught up with its
 * entries), counted in middle_left_in_time. */
static struct watch *cancel_wm;
static int middle_left_in_time;
#ifdef PFE_WANT_SLEDS
#define MIDDLE_LEFT_IN_TIME 0
#else
#define MIDDLE_LEFT_IN_TIME 10
#endif

struct outer_guard {
	~outer_guard()
	{
		dtors++;
		middle_left_in_time += cancel_wm->left == cancel_wm->entries;
	}
};

TRACED int cancel_outer(int x)
{
	outer_guard g;

	return cancel_middle(x) + 1;
}

static void *cancel_thread(void *)
{
	cancel_outer(1);
	return NULL;
}

static void check_cancel(void)
{
	struct watch *wi = watch("cancel_inner", (void *)cancel_inner);
	struct watch *wm = watch("cancel_middle", (void *)cancel_middle);
	struct watch *wo = watch("cancel_outer", (void *)cancel_outer);

	cancel_wm = wm;
	trace_all();
	for (int i = 0; i < 10; i++)
		cancel_one(cancel_thread, i);
	CHECK(dtors == 20, "%d destructors run, want 20", dtors);
	CHECK(middle_left_in_time == MIDDLE_LEFT_IN_TIME,
	      "cancel_middle's exit called before cancel_outer's destructor %d times, want %d", middle_left_in_time,
	      MIDDLE_LEFT_IN_TIME);
	CHECK_COUNTS(wi, 10, 0, 10);
	CHECK_COUNTS(wm, 10, 0, 10);
	CHECK_COUNTS(wo, 10, 0, 10);
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	if (!strcmp(what, "catch"))
		check_catch();
	else if (!strcmp(what, "rethrow"))
		check_rethrow();
	else if (!strcmp(what, "pthread_exit"))
		check_pthread_exit();
	else if (!strcmp(what, "cancel"))
		check_cancel();
	else
		CHECK(0, "usage: rt-unwind-cxx catch|rethrow|pthread_exit|cancel");
	if (failures)
		return 1;
	printf("ok %s\n", what);
	return 0;
}
