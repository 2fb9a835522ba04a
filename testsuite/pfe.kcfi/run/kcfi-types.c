/* kcfi-types.c: the hash corpus of pfe.kcfi: C function types, each the
 * type of one extern function whose address the table below takes, so
 * that Clang (-fsanitize=kcfi) and pfe (cfi=kcfi) both define
 * __kcfi_typeid_<name> = the type's kCFI hash.  kcfi.exp compares the two
 * objects' symbols: every hash must agree.
 *
 * Types: integers of every width and signedness, bool, the char kinds,
 * the floating types, _Complex, __int128, pointers with const, volatile
 * and restrict at every level, pointers to functions and to incomplete
 * structs, structs, unions and enums by tag, typedefs of all of these
 * (Clang hashes the type they name), anonymous structs (named by a typedef
 * or not), arrays as parameters and pointers to arrays, variadic and
 * unprototyped functions, vectors, _Atomic, the kernel's callback types,
 * qualified return types (Clang keeps their qualifiers, as GCC does before
 * C11; from C11 on GCC drops them and pfe refuses them: kcfi.exp leaves
 * them out there), enums of 1, 2 and 8 bytes.
 * Return types go through a typedef (ret_N) so that any type can be one.
 * Built with -std=gnu11 by both compilers: from C23 (GCC 15's default)
 * int f() is int f(void).
 *
 * Debug: PFE_KCFI_DEBUG=1 prints the strings pfe hashes; Clang's are in
 * clang -fsanitize=cfi-icall -flto -fvisibility=hidden -S -emit-llvm. */
/* No libc headers: Clang compiles this for any target without a sysroot
 * (the sid chroot has no riscv64 libc).  The typedefs are glibc's for the
 * LP64 Linux targets (x86_64, aarch64, riscv64); the compilers' own
 * macros where the target decides (wchar_t: unsigned on aarch64). */
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef long ssize_t;
typedef __WCHAR_TYPE__ wchar_t;
typedef __CHAR16_TYPE__ char16_t;
typedef __CHAR32_TYPE__ char32_t;
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long int64_t;
typedef unsigned long uint64_t;
typedef long intptr_t;
typedef unsigned long uintptr_t;
typedef signed char int_least8_t;
typedef long int_fast16_t;
typedef unsigned long uint_fast32_t;
typedef long intmax_t;
typedef unsigned long uintmax_t;

struct point { int x, y; };
struct rect { struct point a, b; };
struct list_head { struct list_head *next, *prev; };
union value { long l; double d; void *p; };
enum color { RED, GREEN, BLUE };
enum shape { SQUARE, CIRCLE };
typedef int my_int_t;
typedef char *my_ptr_t;
typedef struct point point_t;
typedef struct { int a; } anon_t;
typedef struct named { int b; } named_t;
typedef void (*handler_t)(int);
typedef float v4sf_t __attribute__((vector_size(16)));
typedef int v4si_t __attribute__((vector_size(16)));
/* Qualified return types (Clang keeps them; GCC from C11 drops them unless
 * pfe keeps them), qualifiers Clang drops (top-level, on parameters), and
 * enums of every size. */
typedef const unsigned cu_t;
typedef int *const icp_t;
enum __attribute__((packed)) e8 { E8 = 1 };
enum e16 { E16 = 0x1000 } __attribute__((packed));
enum e64 { E64 = 0x100000000L };
enum eneg { ENEG = -1 };
struct incomplete;
struct file;
struct inode;
struct device;
struct device_attribute;
struct work_struct;
struct timer_list;
struct notifier_block;
struct rcu_head;
struct seq_file;
struct sk_buff;
struct nf_hook_state;
struct sock;
struct msghdr;
struct a_very_long_structure_name_for_mangling;
struct another_fairly_long_structure_name;
struct s1;
struct s2;
struct s3;
struct s4;
struct s5;
struct s6;
struct s7;
struct s8;
struct s9;
struct s10;
struct s11;
struct s12;
struct s13;
struct s14;
struct s15;
struct s16;
struct s17;
struct s18;
struct s19;
struct s20;
struct s21;
struct s22;
struct s23;
struct s24;
struct s25;
struct s26;
struct s27;
struct s28;
struct s29;
struct s30;
struct s31;
struct s32;
struct s33;
struct s34;
struct s35;
struct s36;
struct s37;
struct s38;
struct s39;
struct s40;

typedef void ret_001;
extern ret_001 kcfi_t001(void);
typedef void ret_002;
extern ret_002 kcfi_t002(int);
typedef int ret_003;
extern ret_003 kcfi_t003(void);
typedef char ret_004;
extern ret_004 kcfi_t004(char);
typedef signed char ret_005;
extern ret_005 kcfi_t005(signed char);
typedef unsigned char ret_006;
extern ret_006 kcfi_t006(unsigned char);
typedef short ret_007;
extern ret_007 kcfi_t007(short);
typedef unsigned short ret_008;
extern ret_008 kcfi_t008(unsigned short);
typedef int ret_009;
extern ret_009 kcfi_t009(int);
typedef unsigned ret_010;
extern ret_010 kcfi_t010(unsigned);
typedef long ret_011;
extern ret_011 kcfi_t011(long);
typedef unsigned long ret_012;
extern ret_012 kcfi_t012(unsigned long);
typedef long long ret_013;
extern ret_013 kcfi_t013(long long);
typedef unsigned long long ret_014;
extern ret_014 kcfi_t014(unsigned long long);
typedef __int128 ret_015;
extern ret_015 kcfi_t015(__int128);
typedef unsigned __int128 ret_016;
extern ret_016 kcfi_t016(unsigned __int128);
typedef _Bool ret_017;
extern ret_017 kcfi_t017(_Bool);
typedef float ret_018;
extern ret_018 kcfi_t018(float);
typedef double ret_019;
extern ret_019 kcfi_t019(double);
typedef long double ret_020;
extern ret_020 kcfi_t020(long double);
typedef _Complex float ret_021;
extern ret_021 kcfi_t021(_Complex float);
typedef _Complex double ret_022;
extern ret_022 kcfi_t022(_Complex double);
typedef _Complex long double ret_023;
extern ret_023 kcfi_t023(_Complex long double);
typedef void ret_024;
extern ret_024 kcfi_t024(char, signed char, unsigned char);
typedef void ret_025;
extern ret_025 kcfi_t025(short, int, long, long long);
typedef void ret_026;
extern ret_026 kcfi_t026(unsigned short, unsigned, unsigned long, unsigned long long);
typedef void ret_027;
extern ret_027 kcfi_t027(float, double, long double);
typedef void ret_028;
extern ret_028 kcfi_t028(_Bool, char, int);
typedef int ret_029;
extern ret_029 kcfi_t029(int, int);
typedef int ret_030;
extern ret_030 kcfi_t030(int, int, int);
typedef int ret_031;
extern ret_031 kcfi_t031(int, int, int, int, int, int, int, int, int);
typedef long ret_032;
extern ret_032 kcfi_t032(long, long, long, long, long, long, long, long, long, long);
typedef void ret_033;
extern ret_033 kcfi_t033(int8_t);
typedef void ret_034;
extern ret_034 kcfi_t034(uint8_t);
typedef void ret_035;
extern ret_035 kcfi_t035(int16_t);
typedef void ret_036;
extern ret_036 kcfi_t036(uint16_t);
typedef void ret_037;
extern ret_037 kcfi_t037(int32_t);
typedef void ret_038;
extern ret_038 kcfi_t038(uint32_t);
typedef void ret_039;
extern ret_039 kcfi_t039(int64_t);
typedef void ret_040;
extern ret_040 kcfi_t040(uint64_t);
typedef void ret_041;
extern ret_041 kcfi_t041(intptr_t);
typedef void ret_042;
extern ret_042 kcfi_t042(uintptr_t);
typedef void ret_043;
extern ret_043 kcfi_t043(size_t);
typedef void ret_044;
extern ret_044 kcfi_t044(ssize_t);
typedef void ret_045;
extern ret_045 kcfi_t045(ptrdiff_t);
typedef void ret_046;
extern ret_046 kcfi_t046(wchar_t);
typedef void ret_047;
extern ret_047 kcfi_t047(char16_t);
typedef void ret_048;
extern ret_048 kcfi_t048(char32_t);
typedef void ret_049;
extern ret_049 kcfi_t049(int_least8_t, int_fast16_t, uint_fast32_t, intmax_t, uintmax_t);
typedef void ret_050;
extern ret_050 kcfi_t050(my_int_t);
typedef void ret_051;
extern ret_051 kcfi_t051(my_ptr_t);
typedef my_int_t ret_052;
extern ret_052 kcfi_t052(my_int_t, my_int_t);
typedef void ret_053;
extern ret_053 kcfi_t053(void *);
typedef void ret_054;
extern ret_054 kcfi_t054(const void *);
typedef void ret_055;
extern ret_055 kcfi_t055(volatile void *);
typedef void ret_056;
extern ret_056 kcfi_t056(const volatile void *);
typedef void ret_057;
extern ret_057 kcfi_t057(char *);
typedef void ret_058;
extern ret_058 kcfi_t058(const char *);
typedef void ret_059;
extern ret_059 kcfi_t059(volatile char *);
typedef void ret_060;
extern ret_060 kcfi_t060(const volatile char *);
typedef void ret_061;
extern ret_061 kcfi_t061(char *restrict);
typedef void ret_062;
extern ret_062 kcfi_t062(const char *restrict);
typedef void ret_063;
extern ret_063 kcfi_t063(char *restrict *);
typedef void ret_064;
extern ret_064 kcfi_t064(char **);
typedef void ret_065;
extern ret_065 kcfi_t065(const char **);
typedef void ret_066;
extern ret_066 kcfi_t066(char *const *);
typedef void ret_067;
extern ret_067 kcfi_t067(const char *const *);
typedef void ret_068;
extern ret_068 kcfi_t068(char ***);
typedef void ret_069;
extern ret_069 kcfi_t069(int *);
typedef void ret_070;
extern ret_070 kcfi_t070(const int *);
typedef void ret_071;
extern ret_071 kcfi_t071(unsigned *);
typedef void ret_072;
extern ret_072 kcfi_t072(long *);
typedef void ret_073;
extern ret_073 kcfi_t073(unsigned long *);
typedef void ret_074;
extern ret_074 kcfi_t074(long long *);
typedef void ret_075;
extern ret_075 kcfi_t075(double *);
typedef void ret_076;
extern ret_076 kcfi_t076(const double *);
typedef void ret_077;
extern ret_077 kcfi_t077(float *, float *);
typedef void ret_078;
extern ret_078 kcfi_t078(float *, double *, float *);
typedef void ret_079;
extern ret_079 kcfi_t079(int *, int *, int *);
typedef void ret_080;
extern ret_080 kcfi_t080(const int *, const int *);
typedef void ret_081;
extern ret_081 kcfi_t081(int *, const int *, int *, const int *);
typedef void ret_082;
extern ret_082 kcfi_t082(void *, void *);
typedef void ret_083;
extern ret_083 kcfi_t083(void *, const void *, size_t);
typedef void ret_084;
extern ret_084 kcfi_t084(char *, const char *, size_t);
typedef int ret_085;
extern ret_085 kcfi_t085(const char *, ...);
typedef int ret_086;
extern ret_086 kcfi_t086(char *, const char *, ...);
typedef int ret_087;
extern ret_087 kcfi_t087(int, ...);
typedef int ret_088;
extern ret_088 kcfi_t088(const char *, __builtin_va_list);
typedef void ret_089;
extern ret_089 kcfi_t089(__builtin_va_list);
typedef void ret_090;
extern ret_090 kcfi_t090(_Bool *);
typedef void ret_091;
extern ret_091 kcfi_t091(_Complex float *);
typedef void ret_092;
extern ret_092 kcfi_t092(_Complex double, _Complex double);
typedef void ret_093;
extern ret_093 kcfi_t093(struct incomplete *);
typedef void ret_094;
extern ret_094 kcfi_t094(const struct incomplete *);
typedef void ret_095;
extern ret_095 kcfi_t095(struct incomplete **);
typedef void ret_096;
extern ret_096 kcfi_t096(struct incomplete *, struct incomplete *);
typedef void ret_097;
extern ret_097 kcfi_t097(struct incomplete *, const struct incomplete *);
typedef void ret_098;
extern ret_098 kcfi_t098(struct point);
typedef void ret_099;
extern ret_099 kcfi_t099(struct point *);
typedef void ret_100;
extern ret_100 kcfi_t100(const struct point *);
typedef void ret_101;
extern ret_101 kcfi_t101(volatile struct point *);
typedef struct point ret_102;
extern ret_102 kcfi_t102(void);
typedef struct point ret_103;
extern ret_103 kcfi_t103(struct point, struct point);
typedef struct point * ret_104;
extern ret_104 kcfi_t104(struct point *);
typedef void ret_105;
extern ret_105 kcfi_t105(struct point *, struct rect *);
typedef void ret_106;
extern ret_106 kcfi_t106(struct rect *, struct point *, struct rect *, struct point *);
typedef void ret_107;
extern ret_107 kcfi_t107(struct list_head *, struct list_head *);
typedef void ret_108;
extern ret_108 kcfi_t108(struct list_head *, struct list_head *, struct list_head *);
typedef void ret_109;
extern ret_109 kcfi_t109(union value);
typedef void ret_110;
extern ret_110 kcfi_t110(union value *);
typedef union value ret_111;
extern ret_111 kcfi_t111(union value *);
typedef void ret_112;
extern ret_112 kcfi_t112(const union value *);
typedef void ret_113;
extern ret_113 kcfi_t113(enum color);
typedef void ret_114;
extern ret_114 kcfi_t114(enum color *);
typedef enum color ret_115;
extern ret_115 kcfi_t115(enum color);
typedef enum color ret_116;
extern ret_116 kcfi_t116(int, enum color);
typedef void ret_117;
extern ret_117 kcfi_t117(enum color, enum shape);
typedef void ret_118;
extern ret_118 kcfi_t118(const enum color *);
typedef void ret_119;
extern ret_119 kcfi_t119(point_t);
typedef void ret_120;
extern ret_120 kcfi_t120(point_t *);
typedef void ret_121;
extern ret_121 kcfi_t121(const point_t *);
typedef void ret_122;
extern ret_122 kcfi_t122(anon_t *);
typedef void ret_123;
extern ret_123 kcfi_t123(anon_t *, anon_t *);
typedef void ret_124;
extern ret_124 kcfi_t124(named_t *);
typedef void ret_125;
extern ret_125 kcfi_t125(struct a_very_long_structure_name_for_mangling *);
typedef void ret_126;
extern ret_126 kcfi_t126(struct a_very_long_structure_name_for_mangling *, struct another_fairly_long_structure_name *);
typedef void ret_127;
extern ret_127 kcfi_t127(struct s1 *, struct s2 *, struct s3 *, struct s4 *, struct s5 *, struct s6 *, struct s7 *, struct s8 *, struct s9 *, struct s10 *, struct s11 *, struct s12 *);
typedef void ret_128;
extern ret_128 kcfi_t128(struct s1 *, struct s2 *, struct s3 *, struct s4 *, struct s5 *, struct s6 *, struct s7 *, struct s8 *, struct s9 *, struct s10 *, struct s11 *, struct s12 *, struct s1 *, struct s12 *, struct s7 *);
typedef void ret_129;
extern ret_129 kcfi_t129(struct s1 *, struct s2 *, struct s3 *, struct s4 *, struct s5 *, struct s6 *, struct s7 *, struct s8 *, struct s9 *, struct s10 *, struct s11 *, struct s12 *, struct s13 *, struct s14 *, struct s15 *, struct s16 *, struct s17 *, struct s18 *, struct s19 *, struct s20 *, struct s21 *, struct s22 *, struct s23 *, struct s24 *, struct s25 *, struct s26 *, struct s27 *, struct s28 *, struct s29 *, struct s30 *, struct s31 *, struct s32 *, struct s33 *, struct s34 *, struct s35 *, struct s36 *, struct s37 *, struct s38 *, struct s39 *, struct s40 *, struct s1 *, struct s39 *, struct s40 *);
typedef void ret_130;
extern ret_130 kcfi_t130(int [10]);
typedef void ret_131;
extern ret_131 kcfi_t131(int []);
typedef void ret_132;
extern ret_132 kcfi_t132(const int [10]);
typedef void ret_133;
extern ret_133 kcfi_t133(char [256]);
typedef void ret_134;
extern ret_134 kcfi_t134(int (*)[3]);
typedef void ret_135;
extern ret_135 kcfi_t135(int (*)[]);
typedef void ret_136;
extern ret_136 kcfi_t136(const int (*)[3]);
typedef void ret_137;
extern ret_137 kcfi_t137(int [][4]);
typedef void ret_138;
extern ret_138 kcfi_t138(int [2][3][4]);
typedef void ret_139;
extern ret_139 kcfi_t139(double (*)[2][2]);
typedef void ret_140;
extern ret_140 kcfi_t140(struct point [4]);
typedef void ret_141;
extern ret_141 kcfi_t141(struct point (*)[4]);
typedef void ret_142;
extern ret_142 kcfi_t142(char *[]);
typedef void ret_143;
extern ret_143 kcfi_t143(const char *[]);
typedef void ret_144;
extern ret_144 kcfi_t144(int (*)(int));
typedef void ret_145;
extern ret_145 kcfi_t145(int (*)(void));
typedef void ret_146;
extern ret_146 kcfi_t146(void (*)(void));
typedef void ret_147;
extern ret_147 kcfi_t147(void (*)(void *));
typedef void ret_148;
extern ret_148 kcfi_t148(void (*)(void *), void *);
typedef void ret_149;
extern ret_149 kcfi_t149(int (*)(int), int (*)(int));
typedef void ret_150;
extern ret_150 kcfi_t150(int (*)(const void *, const void *));
typedef void ret_151;
extern ret_151 kcfi_t151(void *, size_t, size_t, int (*)(const void *, const void *));
typedef void ret_152;
extern ret_152 kcfi_t152(int (*)());
typedef void ret_153;
extern ret_153 kcfi_t153(int (*)(int, ...));
typedef void ret_154;
extern ret_154 kcfi_t154(void (*(*)(int))(void));
typedef void ret_155;
extern ret_155 kcfi_t155(int (*(*)(int))(int));
typedef void ret_156;
extern ret_156 kcfi_t156(int (*[3])(int));
typedef void ret_157;
extern ret_157 kcfi_t157(int (*)(int (*)(int)));
typedef void ret_158;
extern ret_158 kcfi_t158(int (*)(int (*)(int)), int (*)(int));
typedef void ret_159;
extern ret_159 kcfi_t159(int (*)(struct point *), struct point *);
typedef void ret_160;
extern ret_160 kcfi_t160(handler_t);
typedef void ret_161;
extern ret_161 kcfi_t161(handler_t, handler_t);
typedef void ret_162;
extern ret_162 kcfi_t162(const handler_t *);
typedef void ret_163;
extern ret_163 kcfi_t163(handler_t *);
typedef handler_t ret_164;
extern ret_164 kcfi_t164(int);
typedef handler_t ret_165;
extern ret_165 kcfi_t165(handler_t);
typedef int (*ret_166)(int);
extern ret_166 kcfi_t166(int);
typedef void (*ret_167)(void);
extern ret_167 kcfi_t167(void (*)(void));
typedef void ret_168;
extern ret_168 kcfi_t168(const volatile unsigned long *);
typedef const char * ret_169;
extern ret_169 kcfi_t169(void);
typedef const char * ret_170;
extern ret_170 kcfi_t170(const char *);
typedef volatile int * ret_171;
extern ret_171 kcfi_t171(volatile int *);
typedef void ret_172;
extern ret_172 kcfi_t172(int, const int);
typedef void ret_173;
extern ret_173 kcfi_t173(const int, volatile int);
typedef void ret_174;
extern ret_174 kcfi_t174(int *const);
typedef void ret_175;
extern ret_175 kcfi_t175(const int *const);
typedef void ret_176;
extern ret_176 kcfi_t176(const volatile int);
typedef void ret_177;
extern ret_177 kcfi_t177(_Atomic int);
typedef void ret_178;
extern ret_178 kcfi_t178(_Atomic int *);
typedef void ret_179;
extern ret_179 kcfi_t179(const _Atomic int *);
typedef void ret_180;
extern ret_180 kcfi_t180(_Atomic(struct point) *);
typedef void ret_181;
extern ret_181 kcfi_t181(_Atomic long *, _Atomic long *);
typedef void ret_182;
extern ret_182 kcfi_t182(float __attribute__((vector_size(16))));
typedef void ret_183;
extern ret_183 kcfi_t183(int __attribute__((vector_size(16))));
typedef void ret_184;
extern ret_184 kcfi_t184(double __attribute__((vector_size(16))));
typedef void ret_185;
extern ret_185 kcfi_t185(v4sf_t, v4sf_t);
typedef v4si_t ret_186;
extern ret_186 kcfi_t186(v4si_t, v4si_t);
typedef void ret_187;
extern ret_187 kcfi_t187(v4sf_t *);
typedef int ret_188;
extern ret_188 kcfi_t188(int, long, long long, unsigned, unsigned long, unsigned long long);
typedef char ret_189;
extern ret_189 kcfi_t189(char, char, char);
typedef unsigned char ret_190;
extern ret_190 kcfi_t190(const unsigned char *, size_t);
typedef void ret_191;
extern ret_191 kcfi_t191(const unsigned char *, unsigned char *, size_t);
typedef int ret_192;
extern ret_192 kcfi_t192(struct file *, char *, size_t, long long *);
typedef long ret_193;
extern ret_193 kcfi_t193(struct file *, const char *, unsigned long, long long *);
typedef int ret_194;
extern ret_194 kcfi_t194(struct inode *, struct file *);
typedef int ret_195;
extern ret_195 kcfi_t195(struct device *, struct device_attribute *, char *);
typedef long ret_196;
extern ret_196 kcfi_t196(struct device *, struct device_attribute *, const char *, size_t);
typedef void ret_197;
extern ret_197 kcfi_t197(struct work_struct *);
typedef void ret_198;
extern ret_198 kcfi_t198(struct timer_list *);
typedef int ret_199;
extern ret_199 kcfi_t199(void *, int);
typedef int ret_200;
extern ret_200 kcfi_t200(struct notifier_block *, unsigned long, void *);
typedef void ret_201;
extern ret_201 kcfi_t201(struct rcu_head *);
typedef int ret_202;
extern ret_202 kcfi_t202(struct seq_file *, void *);
typedef void * ret_203;
extern ret_203 kcfi_t203(struct seq_file *, long long *);
typedef void * ret_204;
extern ret_204 kcfi_t204(struct seq_file *, void *, long long *);
typedef void ret_205;
extern ret_205 kcfi_t205(struct seq_file *, void *);
typedef unsigned long ret_206;
extern ret_206 kcfi_t206(unsigned long, unsigned long);
typedef unsigned int ret_207;
extern ret_207 kcfi_t207(struct sk_buff *, const struct nf_hook_state *);
typedef int ret_208;
extern ret_208 kcfi_t208(struct sock *, struct msghdr *, size_t, int);
typedef void ret_209;
extern ret_209 kcfi_t209(struct sock *, unsigned int, unsigned int);
typedef void ret_210;
extern ret_210 kcfi_t210(struct sock *, unsigned char);
typedef _Bool ret_211;
extern ret_211 kcfi_t211(const void *, const void *);
typedef _Bool ret_212;
extern ret_212 kcfi_t212(_Bool, _Bool);
typedef double ret_213;
extern ret_213 kcfi_t213(double, double);
typedef float ret_214;
extern ret_214 kcfi_t214(float, float);
typedef long double ret_215;
extern ret_215 kcfi_t215(long double, long double);
typedef double ret_216;
extern ret_216 kcfi_t216(const double *, size_t);
typedef _Complex double ret_217;
extern ret_217 kcfi_t217(_Complex double);
typedef void ret_218;
extern ret_218 kcfi_t218(long double *);
typedef void ret_219;
extern ret_219 kcfi_t219(__int128 *);
typedef void ret_220;
extern ret_220 kcfi_t220(unsigned __int128 *, unsigned __int128 *);
typedef signed char ret_221;
extern ret_221 kcfi_t221(signed char *, unsigned char *, char *);
typedef short ret_222;
extern ret_222 kcfi_t222(short *, unsigned short *);
typedef void ret_223;
extern ret_223 kcfi_t223(int, char, short, long, float, double, void *);
typedef void ret_224;
extern ret_224 kcfi_t224(struct point, union value, enum color);
typedef void ret_225;
extern ret_225 kcfi_t225(struct list_head **, struct list_head ***);
typedef void ret_226;
extern ret_226 kcfi_t226(void **);
typedef void ret_227;
extern ret_227 kcfi_t227(void ***);
typedef void ret_228;
extern ret_228 kcfi_t228(const void **);
typedef void ret_229;
extern ret_229 kcfi_t229(const void *const *);
typedef void ret_230;
extern ret_230 kcfi_t230(void *const *);
typedef void ret_231;
extern ret_231 kcfi_t231(volatile int *volatile *);
typedef void ret_232;
extern ret_232 kcfi_t232(int *restrict, int *restrict);
typedef void ret_233;
extern ret_233 kcfi_t233(const int *restrict *restrict);
typedef void ret_234;
extern ret_234 kcfi_t234(uint64_t, uint64_t);
typedef void ret_235;
extern ret_235 kcfi_t235(uint32_t *, uint64_t *);
typedef void ret_236;
extern ret_236 kcfi_t236(size_t *, ssize_t *);
typedef void ret_237;
extern ret_237 kcfi_t237(struct point *, const struct point *, struct point, const struct point *);
typedef void ret_238;
extern ret_238 kcfi_t238(union value, union value *, union value);
typedef void ret_239;
extern ret_239 kcfi_t239(enum color, enum color *, enum color);
typedef void ret_240;
extern ret_240 kcfi_t240(double, float, double, float);
typedef void ret_241;
extern ret_241 kcfi_t241(long double, double, float);
typedef int ret_242;
extern ret_242 kcfi_t242(int (*)(int, int), int, int);
typedef int ret_243;
extern ret_243 kcfi_t243(int (*)(struct point *, struct point *), struct point *);
typedef void ret_244;
extern ret_244 kcfi_t244(void (*)(int, ...), ...);
typedef void ret_245;
extern ret_245 kcfi_t245(struct point *, ...);
typedef void ret_246;
extern ret_246 kcfi_t246(enum color, ...);
typedef void ret_247;
extern ret_247 kcfi_t247(_Complex float, ...);
typedef void ret_248;
extern ret_248 kcfi_t248(struct { int z; } *);
typedef int ret_249;
extern ret_249 kcfi_t249();
typedef void ret_250;
extern ret_250 kcfi_t250();
typedef struct point * ret_251;
extern ret_251 kcfi_t251();
typedef int ret_252;
extern ret_252 kcfi_t252(int (*)(), int (*)(void), int (*)(int, ...));
/* Qualified return types, t253 to t278 (and a few others between).  From
 * C11 on GCC drops these qualifiers (DR 423), which Clang hashes: pfe
 * refuses them there, and kcfi.exp builds the corpus without them
 * (-DKCFI_NO_QUALIFIED_RETURNS) and alone. */
#ifndef KCFI_NO_QUALIFIED_RETURNS
typedef const unsigned ret_253;
extern ret_253 kcfi_t253(unsigned);
typedef volatile int ret_254;
extern ret_254 kcfi_t254(void);
typedef const volatile long ret_255;
extern ret_255 kcfi_t255(const char *restrict);
typedef const int *const ret_256;
extern ret_256 kcfi_t256(void);
typedef cu_t ret_257;
extern ret_257 kcfi_t257(cu_t);
typedef icp_t ret_258;
extern ret_258 kcfi_t258(icp_t);
typedef _Atomic int ret_259;
extern ret_259 kcfi_t259(_Atomic int);
typedef const _Atomic int ret_260;
extern ret_260 kcfi_t260(void);
typedef const int (*ret_261)(int);
extern ret_261 kcfi_t261(void);
typedef void ret_262;
extern ret_262 kcfi_t262(const int (*)(int), volatile char (*)(void));
typedef const struct point ret_263;
extern ret_263 kcfi_t263(const struct point);
typedef const enum color ret_264;
extern ret_264 kcfi_t264(enum e64, enum eneg);
typedef _Bool ret_265;
extern ret_265 kcfi_t265(const _Bool, volatile _Bool *);
typedef int *restrict ret_266;
extern ret_266 kcfi_t266(int *restrict);
typedef void ret_267;
extern ret_267 kcfi_t267(int (*)(const int), int (*)(int));
typedef const char ret_268;
extern ret_268 kcfi_t268(int, ...);
typedef const int ret_269;
extern ret_269 kcfi_t269();
typedef const void *const ret_270;
extern ret_270 kcfi_t270(const void *const);
typedef enum e8 ret_271;
extern ret_271 kcfi_t271(enum e8, enum e16);
typedef const volatile enum e16 ret_272;
extern ret_272 kcfi_t272(enum e8 *, const enum e16 *);
typedef void ret_273;
extern ret_273 kcfi_t273(const int (*(*)(void))(int));
typedef const handler_t ret_274;
extern ret_274 kcfi_t274(const handler_t);
typedef volatile union value ret_275;
extern ret_275 kcfi_t275(volatile union value *restrict);
typedef const long long ret_276;
extern ret_276 kcfi_t276(const long long, ...);
typedef void ret_277;
extern ret_277 kcfi_t277(const _Atomic(struct point) *, _Atomic(long) *const);
typedef const _Bool ret_278;
extern ret_278 kcfi_t278(const char *const *restrict);
#endif /* KCFI_NO_QUALIFIED_RETURNS */

/* The addresses: Clang and pfe emit a typeid for address-taken externs. */
void *const kcfi_types[] = {
	(void *)kcfi_t001,
	(void *)kcfi_t002,
	(void *)kcfi_t003,
	(void *)kcfi_t004,
	(void *)kcfi_t005,
	(void *)kcfi_t006,
	(void *)kcfi_t007,
	(void *)kcfi_t008,
	(void *)kcfi_t009,
	(void *)kcfi_t010,
	(void *)kcfi_t011,
	(void *)kcfi_t012,
	(void *)kcfi_t013,
	(void *)kcfi_t014,
	(void *)kcfi_t015,
	(void *)kcfi_t016,
	(void *)kcfi_t017,
	(void *)kcfi_t018,
	(void *)kcfi_t019,
	(void *)kcfi_t020,
	(void *)kcfi_t021,
	(void *)kcfi_t022,
	(void *)kcfi_t023,
	(void *)kcfi_t024,
	(void *)kcfi_t025,
	(void *)kcfi_t026,
	(void *)kcfi_t027,
	(void *)kcfi_t028,
	(void *)kcfi_t029,
	(void *)kcfi_t030,
	(void *)kcfi_t031,
	(void *)kcfi_t032,
	(void *)kcfi_t033,
	(void *)kcfi_t034,
	(void *)kcfi_t035,
	(void *)kcfi_t036,
	(void *)kcfi_t037,
	(void *)kcfi_t038,
	(void *)kcfi_t039,
	(void *)kcfi_t040,
	(void *)kcfi_t041,
	(void *)kcfi_t042,
	(void *)kcfi_t043,
	(void *)kcfi_t044,
	(void *)kcfi_t045,
	(void *)kcfi_t046,
	(void *)kcfi_t047,
	(void *)kcfi_t048,
	(void *)kcfi_t049,
	(void *)kcfi_t050,
	(void *)kcfi_t051,
	(void *)kcfi_t052,
	(void *)kcfi_t053,
	(void *)kcfi_t054,
	(void *)kcfi_t055,
	(void *)kcfi_t056,
	(void *)kcfi_t057,
	(void *)kcfi_t058,
	(void *)kcfi_t059,
	(void *)kcfi_t060,
	(void *)kcfi_t061,
	(void *)kcfi_t062,
	(void *)kcfi_t063,
	(void *)kcfi_t064,
	(void *)kcfi_t065,
	(void *)kcfi_t066,
	(void *)kcfi_t067,
	(void *)kcfi_t068,
	(void *)kcfi_t069,
	(void *)kcfi_t070,
	(void *)kcfi_t071,
	(void *)kcfi_t072,
	(void *)kcfi_t073,
	(void *)kcfi_t074,
	(void *)kcfi_t075,
	(void *)kcfi_t076,
	(void *)kcfi_t077,
	(void *)kcfi_t078,
	(void *)kcfi_t079,
	(void *)kcfi_t080,
	(void *)kcfi_t081,
	(void *)kcfi_t082,
	(void *)kcfi_t083,
	(void *)kcfi_t084,
	(void *)kcfi_t085,
	(void *)kcfi_t086,
	(void *)kcfi_t087,
	(void *)kcfi_t088,
	(void *)kcfi_t089,
	(void *)kcfi_t090,
	(void *)kcfi_t091,
	(void *)kcfi_t092,
	(void *)kcfi_t093,
	(void *)kcfi_t094,
	(void *)kcfi_t095,
	(void *)kcfi_t096,
	(void *)kcfi_t097,
	(void *)kcfi_t098,
	(void *)kcfi_t099,
	(void *)kcfi_t100,
	(void *)kcfi_t101,
	(void *)kcfi_t102,
	(void *)kcfi_t103,
	(void *)kcfi_t104,
	(void *)kcfi_t105,
	(void *)kcfi_t106,
	(void *)kcfi_t107,
	(void *)kcfi_t108,
	(void *)kcfi_t109,
	(void *)kcfi_t110,
	(void *)kcfi_t111,
	(void *)kcfi_t112,
	(void *)kcfi_t113,
	(void *)kcfi_t114,
	(void *)kcfi_t115,
	(void *)kcfi_t116,
	(void *)kcfi_t117,
	(void *)kcfi_t118,
	(void *)kcfi_t119,
	(void *)kcfi_t120,
	(void *)kcfi_t121,
	(void *)kcfi_t122,
	(void *)kcfi_t123,
	(void *)kcfi_t124,
	(void *)kcfi_t125,
	(void *)kcfi_t126,
	(void *)kcfi_t127,
	(void *)kcfi_t128,
	(void *)kcfi_t129,
	(void *)kcfi_t130,
	(void *)kcfi_t131,
	(void *)kcfi_t132,
	(void *)kcfi_t133,
	(void *)kcfi_t134,
	(void *)kcfi_t135,
	(void *)kcfi_t136,
	(void *)kcfi_t137,
	(void *)kcfi_t138,
	(void *)kcfi_t139,
	(void *)kcfi_t140,
	(void *)kcfi_t141,
	(void *)kcfi_t142,
	(void *)kcfi_t143,
	(void *)kcfi_t144,
	(void *)kcfi_t145,
	(void *)kcfi_t146,
	(void *)kcfi_t147,
	(void *)kcfi_t148,
	(void *)kcfi_t149,
	(void *)kcfi_t150,
	(void *)kcfi_t151,
	(void *)kcfi_t152,
	(void *)kcfi_t153,
	(void *)kcfi_t154,
	(void *)kcfi_t155,
	(void *)kcfi_t156,
	(void *)kcfi_t157,
	(void *)kcfi_t158,
	(void *)kcfi_t159,
	(void *)kcfi_t160,
	(void *)kcfi_t161,
	(void *)kcfi_t162,
	(void *)kcfi_t163,
	(void *)kcfi_t164,
	(void *)kcfi_t165,
	(void *)kcfi_t166,
	(void *)kcfi_t167,
	(void *)kcfi_t168,
	(void *)kcfi_t169,
	(void *)kcfi_t170,
	(void *)kcfi_t171,
	(void *)kcfi_t172,
	(void *)kcfi_t173,
	(void *)kcfi_t174,
	(void *)kcfi_t175,
	(void *)kcfi_t176,
	(void *)kcfi_t177,
	(void *)kcfi_t178,
	(void *)kcfi_t179,
	(void *)kcfi_t180,
	(void *)kcfi_t181,
	(void *)kcfi_t182,
	(void *)kcfi_t183,
	(void *)kcfi_t184,
	(void *)kcfi_t185,
	(void *)kcfi_t186,
	(void *)kcfi_t187,
	(void *)kcfi_t188,
	(void *)kcfi_t189,
	(void *)kcfi_t190,
	(void *)kcfi_t191,
	(void *)kcfi_t192,
	(void *)kcfi_t193,
	(void *)kcfi_t194,
	(void *)kcfi_t195,
	(void *)kcfi_t196,
	(void *)kcfi_t197,
	(void *)kcfi_t198,
	(void *)kcfi_t199,
	(void *)kcfi_t200,
	(void *)kcfi_t201,
	(void *)kcfi_t202,
	(void *)kcfi_t203,
	(void *)kcfi_t204,
	(void *)kcfi_t205,
	(void *)kcfi_t206,
	(void *)kcfi_t207,
	(void *)kcfi_t208,
	(void *)kcfi_t209,
	(void *)kcfi_t210,
	(void *)kcfi_t211,
	(void *)kcfi_t212,
	(void *)kcfi_t213,
	(void *)kcfi_t214,
	(void *)kcfi_t215,
	(void *)kcfi_t216,
	(void *)kcfi_t217,
	(void *)kcfi_t218,
	(void *)kcfi_t219,
	(void *)kcfi_t220,
	(void *)kcfi_t221,
	(void *)kcfi_t222,
	(void *)kcfi_t223,
	(void *)kcfi_t224,
	(void *)kcfi_t225,
	(void *)kcfi_t226,
	(void *)kcfi_t227,
	(void *)kcfi_t228,
	(void *)kcfi_t229,
	(void *)kcfi_t230,
	(void *)kcfi_t231,
	(void *)kcfi_t232,
	(void *)kcfi_t233,
	(void *)kcfi_t234,
	(void *)kcfi_t235,
	(void *)kcfi_t236,
	(void *)kcfi_t237,
	(void *)kcfi_t238,
	(void *)kcfi_t239,
	(void *)kcfi_t240,
	(void *)kcfi_t241,
	(void *)kcfi_t242,
	(void *)kcfi_t243,
	(void *)kcfi_t244,
	(void *)kcfi_t245,
	(void *)kcfi_t246,
	(void *)kcfi_t247,
	(void *)kcfi_t248,
	(void *)kcfi_t249,
	(void *)kcfi_t250,
	(void *)kcfi_t251,
	(void *)kcfi_t252,
#ifndef KCFI_NO_QUALIFIED_RETURNS
	(void *)kcfi_t253,
	(void *)kcfi_t254,
	(void *)kcfi_t255,
	(void *)kcfi_t256,
	(void *)kcfi_t257,
	(void *)kcfi_t258,
	(void *)kcfi_t259,
	(void *)kcfi_t260,
	(void *)kcfi_t261,
	(void *)kcfi_t262,
	(void *)kcfi_t263,
	(void *)kcfi_t264,
	(void *)kcfi_t265,
	(void *)kcfi_t266,
	(void *)kcfi_t267,
	(void *)kcfi_t268,
	(void *)kcfi_t269,
	(void *)kcfi_t270,
	(void *)kcfi_t271,
	(void *)kcfi_t272,
	(void *)kcfi_t273,
	(void *)kcfi_t274,
	(void *)kcfi_t275,
	(void *)kcfi_t276,
	(void *)kcfi_t277,
	(void *)kcfi_t278,
#endif
};
