# SPDX-License-Identifier: GPL-2.0
#
# What the Makefiles of the three tools (cli, trace, compare) share,
# included by each after it has set:
#
#   PROG        the program
#   SRCS        its sources
#   LIB_SRCS    the sources of this library it links ($(LIB)/lc.c ...)
#   TEST_PROGS  what "make clean" removes besides
#
# and before its own rules (its check, its tests).  This gives main.c
# LC_VERSION, the version of debian/changelog (version.mk), the flags,
# the objects of the library built with them, $(PROG), asan/$(PROG) (the
# same sources under AddressSanitizer and UBSan), install, uninstall and
# clean.

include ../../version.mk

CC ?= cc
PREFIX ?= /usr/local
CFLAGS ?= -O2 -g
override CFLAGS += -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L
LDLIBS += -lm
SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all \
	    -fno-omit-frame-pointer

LIB := ../lib
LIB_OBJS := $(notdir $(LIB_SRCS:.c=.o))
OBJS := $(SRCS:.c=.o) $(LIB_OBJS)
HEADERS := $(wildcard *.h) $(LIB_SRCS:.c=.h)

all: $(PROG)

$(PROG): $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

%.o: %.c $(HEADERS)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

%.o: $(LIB)/%.c $(HEADERS)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# --version: LC_VERSION, in main.c.
main.o asan/$(PROG): CFLAGS += -DLC_VERSION='"$(LTTNG_CALIBRATE_VERSION)"'
main.o asan/$(PROG): $(LTTNG_CALIBRATE_CHANGELOG)

asan/$(PROG): $(SRCS) $(LIB_SRCS) $(HEADERS)
	mkdir -p asan
	$(CC) $(CFLAGS) -O1 $(SANITIZE) -o $@ $(SRCS) $(LIB_SRCS) $(LDLIBS)

install: $(PROG)
	install -D -m 755 $(PROG) $(DESTDIR)$(PREFIX)/bin/$(PROG)

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/$(PROG)

clean:
	rm -f $(PROG) $(OBJS) $(TEST_PROGS)
	rm -rf asan

.PHONY: all check install uninstall clean
