# tests/serve/lib.sh - what the serve tests share: waiting for the URL a
# `leakfind serve` in the background prints once its snapshots are read.
# Source it after tests/lib.sh.

# serve_wait_url OUT PID TRIES: the first line of OUT (the server's stdout)
# once there, trying every 0.1 s at most TRIES times, and giving up early
# when PID (if not empty) has exited; empty when no URL came.
serve_wait_url() {
    _out=$1 _pid=$2 _tries=${3:-300} _url=""
    for _ in $(seq "$_tries"); do
        _url=$(head -1 "$_out" 2>/dev/null)
        [ -z "$_url" ] || break
        [ -z "$_pid" ] || kill -0 "$_pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "$_url"
}
