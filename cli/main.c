/* cli/main.c - etmtrace command dispatch (stub, replaced by the lead). */
#include <stdio.h>
int main(void) { puts("etmtrace"); return 0; }
