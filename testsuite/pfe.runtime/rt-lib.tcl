# rt-lib.tcl: what the .exp files of libpfe's programs share
# (pfe.runtime/runtime.exp, pfe.trace/trace.exp): building libpfe.so and
# libpfe-trace.so for the target in the objdir, as the Makefile does, and
# finding the target's C++ compiler (rt_cxx).
# Sourced after rt_top is set.  Debug: the build commands are in pfe.log.

# The Makefile's NAME (RT_SRCS, libpfe's C sources; RT_TRACE_SRCS, what
# pfe-trace's library adds; RT_LDLIBS, what the shared libraries link
# with: each one list, in one ":=" there), or {}.
proc rt_make_var {name} {
    global rt_top
    if {![regexp "\n$name := ((?:\[^\n\]*\\\\\n)*\[^\n\]*)" [pfe_read_file $rt_top/Makefile] -> value]} { return {} }
    return [string map [list "\\\n" " "] $value]
}

# Why libpfe's programs cannot run here, or "": x86 programs under qemu-user
# (-m32 where the kernel runs no i386 program: scripts/run-suite.sh).
# libpfe's int3 protocol reads every thread's blocked signals from
# /proc/self/task, and under qemu-user those are qemu's own, which block
# SIGTRAP: each batch is refused (PFE_ESIGNAL, "thread N (qemu-i386)
# blocks SIGTRAP" under PFE_DEBUG=signals).
proc rt_not_runnable {} {
    global pfe_target pfe_run
    if {$pfe_target in {x86_64 i386} && $pfe_run ne ""} {
	return "not run under [lindex $pfe_run 0]: libpfe reads threads' signal masks from /proc, where qemu-user shows its own"
    }
    return ""
}

# The objects of SRCS (below rt_top) compiled with FLAGS, as the Makefile
# compiles them (the plain-C layer is libpfe's, not its interface:
# hidden), or {} if one does not compile (its errors in the log).
proc rt_compile {srcs flags} {
    global rt_top
    set objs {}
    foreach src $srcs {
	set obj rt-[string map {/ -} [file rootname $src]].o
	set hidden [expr {[string match arch-hooks/* $src] ? "-fvisibility=hidden" : ""}]
	set r [pfe_build [list $rt_top/$src] $obj [concat $flags $hidden -c] 0]
	if {[lindex $r 0] != 0} {
	    send_log -- "[lindex $r 1]\n"
	    return {}
	}
	lappend objs $obj
    }
    return $objs
}

# libpfe.so for the target, as the Makefile builds it (no -Werror: older
# and newer GCCs warn differently; the warnings are in the log).
proc rt_build_lib {} {
    global rt_top pfe_target
    set flags {-std=c11 -O2 -fPIC -fasynchronous-unwind-tables -fno-reorder-functions -fno-reorder-blocks-and-partition}
    if {$pfe_target eq "i386"} {
	# The kernel's headers for -m32 (asm/): Debian ships the link only in
	# gcc-multilib, which would remove the cross compilers; the x86_64
	# ones serve both (they test __i386__ themselves).
	file delete -force i386-include
	file mkdir i386-include
	file link -symbolic i386-include/asm /usr/include/x86_64-linux-gnu/asm
	lappend flags -I[pwd]/i386-include
    }
    set srcs [rt_make_var RT_SRCS]
    set tsrcs [rt_make_var RT_TRACE_SRCS]
    set libs [rt_make_var RT_LDLIBS]
    if {$srcs eq "" || $tsrcs eq "" || $libs eq ""} {
	send_log -- "rt_build_lib: no RT_SRCS, RT_TRACE_SRCS or RT_LDLIBS in $rt_top/Makefile\n"
	return 0
    }
    set objs [rt_compile [concat $srcs [pfe_arch_plain_srcs $rt_top] runtime/tramp-$pfe_target.S] $flags]
    if {$objs eq ""} { return 0 }
    set r [pfe_build $objs libpfe.so [concat -shared $libs] 0]
    send_log -- "[lindex $r 1]\n"
    if {[lindex $r 0] != 0} { return 0 }
    # What libpfe.a holds: one object, its code in whole pages.
    set r [pfe_build $objs libpfe-all.o {-r -nostdlib} 0]
    send_log -- "[lindex $r 1]\n"
    if {[lindex $r 0] != 0} { return 0 }
    # pfe-trace's library: the same and RT_TRACE_SRCS.
    set tobjs [rt_compile $tsrcs $flags]
    if {$tobjs eq ""} { return 0 }
    set r [pfe_build [concat $tobjs $objs] libpfe-trace.so [concat -shared $libs] 0]
    send_log -- "[lindex $r 1]\n"
    return [expr {[lindex $r 0] == 0}]
}

# The C++ compiler of the target and what its links end with (after
# libpfe, whose __cxa_begin_catch must come first): g++-N beside gcc-N
# (the same GCC), else the target's Debian g++ (GCC 7.5 here has no C++
# library headers); for i386, gcc-12 -x c++ and the 32-bit libstdc++
# run-time library (no 32-bit libstdc++ headers or link here: g++-multilib
# would remove the cross compilers; the programs include none); the first
# that compiles an exception; "" if none does.
proc rt_cxx {} {
    global pfe_cc pfe_cflags pfe_target
    set cc [lindex $pfe_cc end]
    set gxx [string map {gcc g++} [file tail $cc]]
    if {[file dirname $cc] ne "."} { set gxx [file join [file dirname $cc] $gxx] }
    set cands [list [list [concat [lrange $pfe_cc 0 end-1] $gxx] {}]]
    switch -- $pfe_target {
	x86_64 { lappend cands {g++-12 {}} }
	i386 { lappend cands {g++-12 {}} {{gcc-12 -x c++} /usr/lib32/libstdc++.so.6} }
	default { lappend cands [list $pfe_target-linux-gnu-g++ {}] }
    }
    set f [open rt-cxx-probe.cc w]
    puts $f "struct e {};\nint main() { try { throw e(); } catch (...) {} }"
    close $f
    foreach c $cands {
	if {[lindex [pfe_exec [concat [lindex $c 0] $pfe_cflags rt-cxx-probe.cc -x none [lindex $c 1] -o rt-cxx-probe.exe]] 0] == 0} {
	    verbose -log "C++ compiler: $c"
	    return $c
	}
    }
    return ""
}
