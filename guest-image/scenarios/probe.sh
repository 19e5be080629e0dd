# probe: report a pass at once (used to test whether an accelerator works).
exit 0
