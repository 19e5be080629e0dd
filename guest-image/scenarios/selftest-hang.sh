# selftest-hang: the guest never reports a verdict; the host's time limit
# must end it and report a timeout.
while :; do sleep 3600; done
