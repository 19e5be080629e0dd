# selftest-panic: the guest panics; the host must report a failure.
echo c >/proc/sysrq-trigger
