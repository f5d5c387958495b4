#!/usr/bin/env python3
"""gen_command_rows.py — cppredis's own (Redis 7.0 generates commands.c from
the JSON files of its src/commands with utils/generate-command-code.py).

Prints src/commands.cpp rows for commands, read from a running Redis 7.

Flags, arity, key positions, ACL categories and tips are the command's
public interface, so new rows are generated from the reference rather than
typed (then reviewed and pasted; COMMAND DOCS comes from
src/commands/gen_commanddocs.py):

    redis-server --port 7001 --save '' &
    src/commands/gen_command_rows.py 7001 lpush:lpushCommand rpush:rpushCommand

COMMAND INFO does not show Redis's CMD_MAY_REPLICATE; add it by hand to the
rows of the commands Redis 7.0 gives it (PFCOUNT, PUBLISH, SPUBLISH, EVAL,
EVALSHA, FCALL: not writes, yet they may propagate).
"""
import socket, sys
s=socket.create_connection(('127.0.0.1',int(sys.argv[1]))); f=s.makefile('rb')
def cmd(*a):
    s.sendall(("*%d\r\n"%len(a)+"".join("$%d\r\n%s\r\n"%(len(x),x) for x in a)).encode()); return rd()
def rd():
    l=f.readline().decode().rstrip('\r\n'); t=l[0]; v=l[1:]
    if t in '+-': return v
    if t==':': return int(v)
    if t=='$':
        n=int(v)
        if n<0: return None
        return f.read(n+2)[:-2].decode()
    if t=='*':
        n=int(v); return None if n<0 else [rd() for _ in range(n)]
FLAGS={'write':'CMD_WRITE','readonly':'CMD_READONLY','denyoom':'CMD_DENYOOM','admin':'CMD_ADMIN','pubsub':'CMD_PUBSUB',
 'noscript':'CMD_NOSCRIPT','blocking':'CMD_BLOCKING','loading':'CMD_LOADING','stale':'CMD_STALE','skip_monitor':'CMD_SKIP_MONITOR','skip_slowlog':'CMD_SKIP_SLOWLOG',
 'fast':'CMD_FAST','no_auth':'CMD_NO_AUTH','no_mandatory_keys':'CMD_NO_MANDATORY_KEYS','no_async_loading':'CMD_NO_ASYNC_LOADING','no_multi':'CMD_NO_MULTI','movablekeys':'CMD_MOVABLE_KEYS','allow_busy':'CMD_ALLOW_BUSY'}
def implicit(flags, cats):
    c=set()
    if 'write' in flags: c.add('write')
    if 'readonly' in flags and 'scripting' not in cats: c.add('read')  # Redis: not for EVAL_RO
    if 'admin' in flags: c|={'admin','dangerous'}
    if 'pubsub' in flags: c.add('pubsub')
    if 'fast' in flags: c.add('fast')
    if 'blocking' in flags: c.add('blocking')
    if 'fast' not in c: c.add('slow')
    return c
def row(info, proc, indent='    '):
    name=info[0].split('|')[-1]; arity=info[1]; flags=info[2]
    fl=' | '.join(FLAGS[x] for x in flags if x in FLAGS) or '0'
    cats=[x[1:] for x in info[6]]; exp=[c for c in cats if c not in implicit(flags, cats)]
    acl=' | '.join('ACL_CATEGORY_'+c.upper() for c in exp)
    r='%scmd("%s", %s, %d, %s, %d, %d, %d)'%(indent,name,proc,arity,fl,info[3],info[4],info[5])
    if acl: r+='.acl(%s)'%acl
    if info[7]: r+='.tips({%s})'%', '.join('"%s"'%t for t in info[7])
    return r
for spec in sys.argv[2:]:
    name,proc=spec.split(':')
    info=cmd('COMMAND','INFO',name)[0]
    print(row(info,proc)+',')
