/* sqlite-driver.c: drives the sqlite3 amalgamation through a small,
 * deterministic workload (tables, indexes, joins, aggregates, strings,
 * a transaction and a rollback) and prints the results.  Built with and
 * without pfe by run.exp and bench.sh; the outputs must be equal. */
#include <stdio.h>
#include "sqlite3.h"

static int print_row(void *unused, int n, char **values, char **names)
{
	(void)unused;
	(void)names;
	for (int i = 0; i < n; i++)
		printf("%s%s", i ? "|" : "", values[i] ? values[i] : "NULL");
	printf("\n");
	return 0;
}

static const char *const workload[] = {
	"CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT, v REAL);",
	"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
	"WHERE x < 2000) INSERT INTO t(name, v) SELECT printf('n%04d', x), "
	"x * 1.5 FROM c;",
	"CREATE INDEX t_name ON t(name);",
	"CREATE TABLE u(id INTEGER, tag TEXT);",
	"INSERT INTO u SELECT id, CASE id % 3 WHEN 0 THEN 'a' WHEN 1 THEN 'b' "
	"ELSE 'c' END FROM t;",
	"SELECT tag, count(*), round(sum(v), 2), min(name), max(name) FROM t "
	"JOIN u USING(id) GROUP BY tag ORDER BY tag;",
	"SELECT name, v FROM t WHERE name LIKE 'n19%' ORDER BY v DESC LIMIT 3;",
	"BEGIN; DELETE FROM t WHERE id % 2 = 0; SELECT count(*) FROM t; "
	"ROLLBACK;",
	"SELECT count(*), sum(length(name)), group_concat(substr(name, 2, 2), "
	"'') FROM t WHERE id < 20;",
	"SELECT upper(name), hex(name) FROM t WHERE id IN (7, 77, 777);",
};

int main(void)
{
	sqlite3 *db;
	char *err = NULL;

	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		return 1;
	for (unsigned i = 0; i < sizeof(workload) / sizeof(workload[0]); i++)
		if (sqlite3_exec(db, workload[i], print_row, NULL, &err) != SQLITE_OK) {
			fprintf(stderr, "sqlite: %s\n", err);
			return 1;
		}
	sqlite3_close(db);
	return 0;
}
