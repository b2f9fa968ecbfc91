# scripts/synth-args.sh - sourced by scaling.sh and ceiling.sh: the decode
# options of etm_bench's synthetic traces (bench/bench_synth.c) in $work.
# synth_args KIND FILE: options decoding FILE, a trace of kind KIND
# (ptm-loop, ptm-branch, etm3-loop, etm3-branch)
synth_args() {
	local cfg="--protocol ptm --etmidr 0x411CF312 --etmccer 0x34C01AC2"
	case $1 in
	etm3*) cfg="--protocol etmv3 --etmidr 0x410CF250 --etmccer 0x344008F2" ;;
	esac
	echo "$2 --input-format raw --etmcr 0 $cfg --image $work/synth-$1.v2.prog@0x10000"
}
