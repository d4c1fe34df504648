#!/usr/bin/python3 -S
"""`openstack` or `heat` (this file's name), run by the fork server (server.py) listening on
`forkserver.sock` beside this file; the installed client itself when there is no server."""

import array
import json
import os
import socket
import struct
import sys

prog = os.path.basename(sys.argv[0])
here = os.path.dirname(os.path.abspath(sys.argv[0]))
path = os.path.join(here, 'forkserver.sock')


def real():
    os.execv(f'/usr/bin/{prog}', [prog, *sys.argv[1:]])


try:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
except OSError:
    real()

body = json.dumps({'prog': prog, 'argv': sys.argv[1:], 'env': dict(os.environ), 'cwd': os.getcwd()}).encode()
header = struct.pack('!I', len(body))
sock.sendmsg([header + body], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array('i', [0, 1, 2]))])
reply = b''
while len(reply) < 4:
    more = sock.recv(4 - len(reply))
    if not more:
        print(f'{prog}: the fork server lost the command', file=sys.stderr)
        sys.exit(1)
    reply += more
sys.exit(struct.unpack('!i', reply)[0] & 0xFF)
