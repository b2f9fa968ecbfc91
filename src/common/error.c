/* common/error.c - fixed strings for enum etm_error. The switches have no
 * default so -Wswitch flags any new code that lacks a string. */
#include <etmtrace/error.h>

const char *etm_errstr(int err)
{
	enum etm_error e = (enum etm_error)(err < 0 ? -err : err);

	switch (e) {
	case etme_ok: return "success";
	case etme_again: return "more input needed";
	case etme_eos: return "end of stream";
	case etme_nosync: return "not synchronised";
	case etme_bad_opc: return "reserved or invalid packet header";
	case etme_bad_packet: return "malformed packet";
	case etme_truncated: return "packet truncated by end of data";
	case etme_bad_config: return "invalid configuration";
	case etme_nomap: return "memory not accessible";
	case etme_bad_insn: return "instruction cannot be decoded";
	case etme_nomem: return "out of memory";
	case etme_overflow: return "trace overflow";
	case etme_retstack_empty: return "return stack empty";
	case etme_bad_frame: return "corrupt formatter frame";
	case etme_bad_id: return "reserved trace ID";
	case etme_io: return "cannot read file";
	case etme_parse: return "malformed input";
	case etme_invalid: return "invalid argument";
	case etme_internal: return "internal error";
	case etme_busy: return "output not drained";
	case etme_mismatch: return "trace does not match program image";
	case etme_unverified: return "trace below rejected by a later check";
	case etme_halted: return "no restart sync after a debug halt";
	case etme_bad_timestamp: return "timestamp packet with timestamps off";
	case etme_frame_align:
		return "frame alignment lost (bytes lost or inserted in the "
		       "buffer): frames realigned, trace resumes at the next sync";
	}
	return "unknown error";
}

const char *etm_errname(int err)
{
	enum etm_error e = (enum etm_error)(err < 0 ? -err : err);

	switch (e) {
	case etme_ok: return "ok";
	case etme_again: return "again";
	case etme_eos: return "eos";
	case etme_nosync: return "nosync";
	case etme_bad_opc: return "bad_opc";
	case etme_bad_packet: return "bad_packet";
	case etme_truncated: return "truncated";
	case etme_bad_config: return "bad_config";
	case etme_nomap: return "nomap";
	case etme_bad_insn: return "bad_insn";
	case etme_nomem: return "nomem";
	case etme_overflow: return "overflow";
	case etme_retstack_empty: return "retstack_empty";
	case etme_bad_frame: return "bad_frame";
	case etme_bad_id: return "bad_id";
	case etme_io: return "io";
	case etme_parse: return "parse";
	case etme_invalid: return "invalid";
	case etme_internal: return "internal";
	case etme_busy: return "busy";
	case etme_mismatch: return "mismatch";
	case etme_unverified: return "unverified";
	case etme_halted: return "halted";
	case etme_bad_timestamp: return "bad_timestamp";
	case etme_frame_align: return "frame_align";
	}
	return "unknown";
}

const char *etm_errmsg(int err, const char *detail)
{
	return detail && detail[0] ? detail : etm_errstr(err);
}
