"""The real OpenStack clients, started once for a whole test run.

`openstack` costs about 1.4 CPU seconds before it sends a request: importing python-openstackclient
and every plugin it finds. The suite runs it hundreds of times. This server imports the clients once,
then for each request forks a child that runs the client's own main() with the caller's argv,
environment, working directory and file descriptors (received over the socket), and sends back
its exit code. The child is the real client, only its imports are shared: about 0.1 CPU-s a command.

    /usr/bin/python3 server.py SOCKET        prints "ready" once it listens
"""

import array
import contextlib
import io
import json
import os
import signal
import socket
import struct
import sys

MAX_FDS = 3


def warm():
    """Imports the clients and every command module they may load, as the first command would."""
    from importlib.metadata import distributions

    from openstackclient import shell as osc_shell  # noqa: F401
    from heatclient import shell as heat_shell  # noqa: F401

    # No command runs here: one would leave its endpoint and session in module state the
    # children share. Importing what the plugins name is what the first command costs.
    for dist in distributions():
        for ep in dist.entry_points:
            if ep.group.startswith('openstack.') or ep.group.startswith('heatclient'):
                with contextlib.suppress(Exception):
                    __import__(ep.module)
    import requests  # noqa: F401  (the request machinery)
    import keystoneauth1.session  # noqa: F401

    # Caches of what is installed, which no command changes: the plugins' entry points
    # (stevedore's, kept in memory once read) and cliff's module-to-distribution map.
    from cliff import command
    from stevedore import _cache

    command._get_distributions_by_modules()
    _cache._c.get_group_all('openstack.cli')


def run_client(prog, argv):
    if prog == 'heat':
        from heatclient.shell import main
    else:
        from openstackclient.shell import main
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = exit_.code
    except KeyboardInterrupt:
        code = 130
    if code is None:
        code = 0
    if not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    return code


def child(conn, fds, request):
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    os.chdir(request['cwd'])
    os.environ.clear()
    os.environ.update(request['env'])
    # New streams on the caller's descriptors, as a fresh interpreter would make them.
    sys.stdin = io.TextIOWrapper(io.FileIO(0, 'r', closefd=False), errors='surrogateescape')
    sys.stdout = io.TextIOWrapper(io.FileIO(1, 'w', closefd=False), errors='surrogateescape', line_buffering=os.isatty(1))
    sys.stderr = io.TextIOWrapper(io.FileIO(2, 'w', closefd=False), errors='backslashreplace', line_buffering=True)
    sys.argv = [request['prog'], *request['argv']]
    code = 1
    try:
        code = run_client(request['prog'], request['argv'])
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        with contextlib.suppress(Exception):
            conn.sendall(struct.pack('!i', code))
        os._exit(code & 0xFF)


def receive(conn):
    """The request's header (its length, then JSON) and the caller's three descriptors."""
    fds = array.array('i')
    data, ancdata, _flags, _addr = conn.recvmsg(65536, socket.CMSG_SPACE(MAX_FDS * fds.itemsize))
    for level, kind, payload in ancdata:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - (len(payload) % fds.itemsize)])
    while len(data) < 4:
        more = conn.recv(65536)
        if not more:
            raise EOFError('request cut short')
        data += more
    (length,) = struct.unpack('!I', data[:4])
    body = data[4:]
    while len(body) < length:
        more = conn.recv(max(65536, length - len(body)))
        if not more:
            raise EOFError('request cut short')
        body += more
    return json.loads(body[:length]), list(fds)


def reap(_signum, _frame):
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] != 0:
            pass


def main():
    path = sys.argv[1]
    # Read at import to name the program (cliff's App.NAME): the client's own name.
    sys.argv = ['/usr/bin/openstack']
    warm()
    # Children reaped here (not left to the kernel): their CPU time then counts as this
    # server's, and so as the test run's.
    signal.signal(signal.SIGCHLD, reap)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(64)
    print('ready', flush=True)
    while True:
        conn, _ = server.accept()
        fds = []
        try:
            request, fds = receive(conn)
            if len(fds) != 3:
                raise ValueError('expected the caller\'s stdin, stdout and stderr')
            if os.fork() == 0:
                server.close()
                child(conn, fds, request)
        except Exception as error:  # a bad request: tell the caller, keep serving
            with contextlib.suppress(Exception):
                conn.sendall(struct.pack('!i', 255))
            print(f'forkserver: {error}', file=sys.stderr, flush=True)
        finally:
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
            conn.close()


if __name__ == '__main__':
    main()
