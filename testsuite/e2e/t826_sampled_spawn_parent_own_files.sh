#!/usr/bin/env bash
# A sampled process (no -pg) that starts a -pg program writes its files
# under its pid from then on, so that neither gmon.out replaces the other.
# fork told it (pthread_atfork); posix_spawn and vfork did not: they run no
# fork handler and glibc's exec by an internal name.  Here the started
# program ends after its starter (it reads its stdin until the starter is
# gone), so the started program's gmon.out came last and replaced the
# starter's profile: gmon.out and its sidecar were the started program's
# alone, and nothing was left of the starter's 0.2 s of samples.
# Exact: which files exist and whose they are; the starter's work is about
# 200 samples at the default rate, which cannot all be missed.
. "$SRCDIR/testsuite/fixtures/callpath/testlib.sh"
cd "$WORKDIR" || exit 1
F="$SRCDIR/testsuite/fixtures/spawn"
gcc -O1 -g -o starter "$F/starter.c" && gcc -pg -O1 -o waiter "$F/waiter.c" ||
	{ echo "Bail out! build"; exit 1; }
for how in spawn vfork; do
	rm -rf "$how" && mkdir "$how" && cd "$how" || exit 1
	child=$(LD_PRELOAD="$CP_SO" ../starter "$how" ../waiter 2> err.txt)
	rc=$?
	# the started program goes on after its starter: wait for its end
	# (a wait, bounded at 10 minutes, not a measure of time)
	for _ in $(seq 6000); do kill -0 "$child" 2> /dev/null || break; sleep 0.1; done
	own=$(ls gmon.out.[0-9]* 2> /dev/null | grep -v '\.callpath$' | head -1)
	cp_check "$how: the starter ends as without the runtime, its child's pid printed ($rc, $child)" \
		bash -c "[ $rc = 0 ] && [ -n '$child' ] && ! kill -0 '$child' 2> /dev/null"
	cp_check "$how: the starter wrote its files under its pid (${own:-none}) beside gmon.out" \
		bash -c "[ -n '$own' ] && [ -s '$own.callpath' ] && [ -s gmon.out ] && [ -s gmon.out.callpath ]"
	cp_check "$how: the starter's file holds the starter's samples" \
		bash -c "'$EGPROF' -b -p ../starter '$own' | grep -qw parent_work"
	cp_check "$how: gmon.out is the started program's (its call of child_work counted)" \
		bash -c "'$EGPROF' -b -q ../waiter gmon.out | grep -qw child_work"
	cd .. || exit 1
done
cp_done
