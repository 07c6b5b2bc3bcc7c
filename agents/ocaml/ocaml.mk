# The OCaml agent (agents/ocaml), one per runtime, each built against its
# own compiler's headers:
#   OCaml 4.13/4.14, the compiler ocamlfind runs (Debian's):
#     build/ocaml/leakfind/           findlib package `leakfind` (OCAMLPATH=build/ocaml)
#     build/leakfind-agent-ocaml4.so  the agent `leakfind record` preloads
#     build/leakfind-ocaml-names      names and shapes from .cmt files
#   OCaml 5.3, the compiler installed at OCAML5_PREFIX, OCaml 5.2 at
#   OCAML52_PREFIX and OCaml 5.1 at OCAML51_PREFIX (tests/ocaml/setup5.sh,
#   run by make check-all, builds them into ~/.cache/leakfind/ocaml-5.3.0,
#   ocaml-5.2.0 and ocaml-5.1.4; point one at an opam switch with
#   make OCAML5_PREFIX=$(opam var prefix)):
#     build/ocaml5/leakfind/ build/leakfind-agent-ocaml5.so build/leakfind-ocaml5-names
#     build/ocaml52/leakfind/ build/leakfind-agent-ocaml52.so build/leakfind-ocaml52-names
#     build/ocaml51/leakfind/ build/leakfind-agent-ocaml51.so build/leakfind-ocaml51-names
# The common sources are agents/ocaml/*.c; agents/ocaml/ocaml4/ and ocaml5/
# hold what reads runtime internals (ocaml5/compat.h: what 5.1 and 5.2
# spell differently). Everything is position-independent: OCaml links PIE
# executables and the agent is also a shared object.

# Plain flags even in the sanitizer build: the agent is linked into OCaml
# programs, which are not linked with the sanitizers' runtimes.
PIC_CFLAGS  := -O2 -g $(STD) -pthread -fPIC
AGENT_DEFS  := -DCAML_NAME_SPACE -DNATIVE_CODE -DTARGET_amd64 -DMODEL_default -DSYS_linux
AGENT_COMMON := $(wildcard agents/ocaml/*.c)
PIC_LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/pic/%.o)
AGENT_LIBS  := -lJudy -lxxhash -lz -lm -pthread

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(PIC_CFLAGS) -MMD -MP -c $< -o $@

# agent_rules LABEL WHERE PACKAGE_DIR OCAMLOPT FAMILY: the objects, the
# preloaded agent and the findlib package for one runtime (LABEL 4, 5, 52
# or 51), built from agents/ocaml/ocamlFAMILY.
define agent_rules
AGENT$(1)_OBJ := $$(patsubst %.c,$(BUILD)/pic$(1)/%.o,$(AGENT_COMMON) $$(wildcard agents/ocaml/ocaml$(5)/*.c))

$(BUILD)/pic$(1)/agents/%.o: agents/%.c
	@mkdir -p $$(dir $$@)
	$$(CC) $$(PIC_CFLAGS) $$(AGENT_DEFS) -I$(2) -Iagents/ocaml/ocaml$(5) -MMD -MP -c $$< -o $$@

$(3)/libleakfind_ocaml.a: $$(filter-out %/preload.o,$$(AGENT$(1)_OBJ)) $$(PIC_LIB_OBJ)
	@mkdir -p $$(dir $$@)
	rm -f $$@
	ar rcs $$@ $$^

$(BUILD)/leakfind-agent-ocaml$(1).so: $$(AGENT$(1)_OBJ) $$(PIC_LIB_OBJ)
	$$(CC) $$(PIC_CFLAGS) -shared -o $$@ $$^ $$(AGENT_LIBS)

$(3)/leakfind.cmxa: agents/ocaml/leakfind.ml agents/ocaml/leakfind.mli $(3)/libleakfind_ocaml.a
	@mkdir -p $(3)
	cp agents/ocaml/leakfind.ml agents/ocaml/leakfind.mli $(3)/
	cd $(3) && $(4) -g -c leakfind.mli leakfind.ml && \
	  $(4) -a -o leakfind.cmxa leakfind.cmx -cclib -lleakfind_ocaml \
	    -cclib -lJudy -cclib -lxxhash -cclib -lz -cclib -lm -cclib -lpthread

$(3)/META: agents/ocaml/META
	@mkdir -p $(3)
	cp $$< $$@

OCAML_AGENT += $(3)/leakfind.cmxa $(3)/META $(BUILD)/leakfind-agent-ocaml$(1).so
DEPS += $$(AGENT$(1)_OBJ:.o=.d)
endef

OCAML_AGENT :=
OCAMLFIND   := $(shell command -v ocamlfind 2>/dev/null)
ifneq ($(OCAMLFIND),)
OCAML_WHERE := $(shell ocamlfind ocamlopt -where 2>/dev/null)
OCAML_VER   := $(shell ocamlfind ocamlopt -version 2>/dev/null)
ifneq ($(filter 4.13.% 4.14.%,$(OCAML_VER)),)
$(eval $(call agent_rules,4,$(OCAML_WHERE),$(BUILD)/ocaml/leakfind,ocamlfind ocamlopt,4))
OCAML_AGENT += $(BUILD)/leakfind-ocaml-names
endif
endif

# ---- leakfind-ocaml-names: names of module fields from .cmt files
# (agents/ocaml/names.ml). A .cmt is read only by the compiler-libs of the
# compiler that wrote it, so the tool is built with the default ocamlfind's
# compiler and with each OCaml 5 (leakfind-ocaml5-names, -ocaml52-names,
# -ocaml51-names), each with the Names_compat of its release
# (names_compat_5_1.ml) or else of its family (names_compat_4.ml,
# names_compat_5.ml, which 5.2's compiler-libs read as 5.3's do).
NAMES_SRC := agents/ocaml/names_compat.mli agents/ocaml/unit_flags.ml agents/ocaml/compiler_error.ml \
  agents/ocaml/clean_names.ml agents/ocaml/shapes.ml agents/ocaml/names.ml
names_release = agents/ocaml/names_compat_$(subst $() ,_,$(wordlist 1,2,$(subst ., ,$(1)))).ml
names_compat = $(or $(wildcard $(names_release)),agents/ocaml/names_compat_$(firstword $(subst ., ,$(1))).ml)

# $(call names_tool,DIR,VERSION,ENV): the recipe. The pipe that drops
# findlib's warnings would hide a failed compile: the tool must be new.
define names_tool
	@mkdir -p $(1)
	cp $(NAMES_SRC) $(1)/
	cp $(call names_compat,$(2)) $(1)/names_compat.ml
	rm -f $@
	cd $(1) && $(3) ocamlfind ocamlopt -package compiler-libs.common -linkpkg names_compat.mli \
	  names_compat.ml unit_flags.ml compiler_error.ml clean_names.ml shapes.ml names.ml -o $(abspath $@) 2>&1 | { grep -v "findlib: \[WARNING\]" || true; }
	test -f $@
endef

ifneq ($(OCAMLFIND),)
$(BUILD)/leakfind-ocaml-names: $(NAMES_SRC) $(call names_compat,$(OCAML_VER))
	$(call names_tool,$(BUILD)/ocaml/names,$(OCAML_VER),)
endif

# ocaml5_runtime LABEL PREFIX VERSION: the agent, findlib package and names
# tool for the OCaml 5.VERSION installed at PREFIX (with the findlib.conf
# tests/ocaml/setup5.sh writes there); another version there is said and
# skipped, as the agent reads 5.1's, 5.2's and 5.3's runtimes only
# (ocaml5/compat.h).
define ocaml5_runtime
OCAML$(1)_OPT := $(2)/bin/ocamlopt.opt
OCAML$(1)_VER := $$(if $$(wildcard $$(OCAML$(1)_OPT)),$$(shell $$(OCAML$(1)_OPT) -version 2>/dev/null))
ifneq ($$(filter $(3).%,$$(OCAML$(1)_VER)),)
$$(eval $$(call agent_rules,$(1),$$(shell $$(OCAML$(1)_OPT) -where),$(BUILD)/ocaml$(1)/leakfind,$$(OCAML$(1)_OPT),5))
ifneq ($(OCAMLFIND),)
OCAML_AGENT += $(BUILD)/leakfind-ocaml$(1)-names
$(BUILD)/leakfind-ocaml$(1)-names: $(NAMES_SRC) $(call names_compat,$(3))
	$$(call names_tool,$(BUILD)/ocaml/names$(1),$(3),OCAMLFIND_CONF=$(2)/findlib.conf)
endif
else ifneq ($$(OCAML$(1)_VER),)
$$(info ocaml-agent: OCaml $$(OCAML$(1)_VER) at $(2) is not $(3): no agent built for it)
endif
endef

OCAML5_PREFIX  ?= $(HOME)/.cache/leakfind/ocaml-5.3.0
OCAML52_PREFIX ?= $(HOME)/.cache/leakfind/ocaml-5.2.0
OCAML51_PREFIX ?= $(HOME)/.cache/leakfind/ocaml-5.1.4
$(eval $(call ocaml5_runtime,5,$(OCAML5_PREFIX),5.3))
$(eval $(call ocaml5_runtime,52,$(OCAML52_PREFIX),5.2))
$(eval $(call ocaml5_runtime,51,$(OCAML51_PREFIX),5.1))

ifneq ($(OCAML_AGENT),)
all: ocaml-agent
check: ocaml-agent
check-slow: ocaml-agent
ocaml-agent: $(OCAML_AGENT)
else
ocaml-agent:
	@echo "ocaml-agent: no OCaml 4.13/4.14 ocamlfind nor OCaml 5 at OCAML5_PREFIX, OCAML52_PREFIX or OCAML51_PREFIX (sh tests/setup.sh installs them)" >&2
endif
.PHONY: ocaml-agent

# ---- record --follow's preload (agents/follow): libc alone, for it runs
# in every process a recorded program starts, OCaml or not.
$(BUILD)/leakfind-follow.so: agents/follow/follow.c
	$(CC) $(PIC_CFLAGS) -shared -o $@ $< -ldl
ifneq ($(OCAML_AGENT),)
ocaml-agent: $(BUILD)/leakfind-follow.so
endif
