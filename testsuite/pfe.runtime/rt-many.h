/* rt-many.h: a thousand of anything, for the runtime's tests that need
 * many functions (rt-soak.c, rt-hazards.c).  RT_THOUSAND(G) expands G(n)
 * for the thousand n from 100 to 1099, pasted as digits, so that G can make
 * a name of each (f##n: a function) and a table of them.
 * Debug: gcc -E shows the expansion.
 */
#ifndef RT_MANY_H
#define RT_MANY_H

#define RT_X10(G, n) G(n##0) G(n##1) G(n##2) G(n##3) G(n##4) G(n##5) G(n##6) G(n##7) G(n##8) G(n##9)
#define RT_X100(G, n) RT_X10(G, n##0) RT_X10(G, n##1) RT_X10(G, n##2) RT_X10(G, n##3) RT_X10(G, n##4) \
	RT_X10(G, n##5) RT_X10(G, n##6) RT_X10(G, n##7) RT_X10(G, n##8) RT_X10(G, n##9)
#define RT_THOUSAND(G) RT_X100(G, 1) RT_X100(G, 2) RT_X100(G, 3) RT_X100(G, 4) RT_X100(G, 5) \
	RT_X100(G, 6) RT_X100(G, 7) RT_X100(G, 8) RT_X100(G, 9) RT_X100(G, 10)

#endif /* RT_MANY_H */
