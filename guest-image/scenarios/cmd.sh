# cmd: run the command in OW_ARGS (ow.args=word,word,...) for debugging:
#   make run SCENARIO=cmd APPEND="ow.args=oomwatch,-v,-d,1"
eval "$OW_ARGS"
