/* expire.h — keys with a time to live (Redis's expire.c): the EXPIRE family
 * of commands and the active expiry cycle. The keyspace side of expiry
 * (getExpire, setExpire, expireIfNeeded: lazy expiry on every lookup) is in
 * db.h, as it is in Redis's db.c. */
#pragma once

struct client;

/* serverCron's share of expiry: deletes expired keys nobody reads, by
 * sampling (bounded to a quarter of a cron tick). */
void activeExpireCycle();

/* The expire commands (the command table is in commands.cpp). */
void expireCommand(client *c);
void expireatCommand(client *c);
void expiretimeCommand(client *c);
void persistCommand(client *c);
void pexpireCommand(client *c);
void pexpireatCommand(client *c);
void pexpiretimeCommand(client *c);
void pttlCommand(client *c);
void ttlCommand(client *c);
