# The OCaml agent (agents/ocaml): built when ocamlfind is on the PATH.
#   build/ocaml/leakfind/     findlib package `leakfind` (OCAMLPATH=build/ocaml)
#   build/leakfind-agent.so   the agent `leakfind record` preloads
# Everything in them is position-independent: OCaml links PIE executables and
# the agent is also a shared object.

OCAMLFIND   := $(shell command -v ocamlfind 2>/dev/null)
ifneq ($(OCAMLFIND),)
OCAML_WHERE := $(shell ocamlfind ocamlopt -where 2>/dev/null)
OCAML_VER   := $(shell ocamlfind ocamlopt -version 2>/dev/null)
# Plain flags even in the sanitizer build: the agent is linked into OCaml
# programs, which are not linked with the sanitizers' runtimes.
PIC_CFLAGS  := -O2 -g $(STD) -pthread -fPIC
AGENT_DEFS  := -DCAML_NAME_SPACE -DNATIVE_CODE -DTARGET_amd64 -DMODEL_default -DSYS_linux
AGENT_SRC   := $(wildcard agents/ocaml/*.c)
PIC_LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/pic/%.o)
AGENT_OBJ   := $(AGENT_SRC:%.c=$(BUILD)/pic/%.o)
AGENT_PKG   := $(BUILD)/ocaml/leakfind
OCAML_AGENT := $(AGENT_PKG)/leakfind.cmxa $(AGENT_PKG)/META $(BUILD)/leakfind-agent.so \
               $(BUILD)/leakfind-ocaml-names

all: ocaml-agent
check: ocaml-agent
check-slow: ocaml-agent
ocaml-agent: $(OCAML_AGENT)

$(BUILD)/pic/agents/%.o: agents/%.c
	@mkdir -p $(dir $@)
	@case "$(OCAML_VER)" in 4.13.*|4.14.*) ;; *) \
	  echo "agents/ocaml: OCaml $(OCAML_VER) is not supported (the agent reads 4.13/4.14 runtime internals; OCaml 5 differs)" >&2; exit 1;; esac
	$(CC) $(PIC_CFLAGS) $(AGENT_DEFS) -I$(OCAML_WHERE) -MMD -MP -c $< -o $@

$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(PIC_CFLAGS) -MMD -MP -c $< -o $@

$(AGENT_PKG)/libleakfind_ocaml.a: $(filter-out %/preload.o,$(AGENT_OBJ)) $(PIC_LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/leakfind-agent.so: $(AGENT_OBJ) $(PIC_LIB_OBJ)
	$(CC) $(PIC_CFLAGS) -shared -o $@ $^ -lJudy -lxxhash -lz -lm -pthread

$(AGENT_PKG)/leakfind.cmxa: agents/ocaml/leakfind.ml agents/ocaml/leakfind.mli $(AGENT_PKG)/libleakfind_ocaml.a
	@mkdir -p $(AGENT_PKG)
	cp agents/ocaml/leakfind.ml agents/ocaml/leakfind.mli $(AGENT_PKG)/
	cd $(AGENT_PKG) && ocamlfind ocamlopt -g -c leakfind.mli leakfind.ml && \
	  ocamlfind ocamlopt -a -o leakfind.cmxa leakfind.cmx -cclib -lleakfind_ocaml \
	    -cclib -lJudy -cclib -lxxhash -cclib -lz -cclib -lm -cclib -lpthread

# ---- leakfind-ocaml-names: names of module fields from .cmt files
# (agents/ocaml/names.ml). A .cmt is read only by the compiler-libs of the
# compiler that wrote it, so the tool is built with the default ocamlfind's
# compiler and, when installed, with OCaml 5 (leakfind-ocaml5-names), each
# with the Names_compat of its family: names_compat_4.ml or _5.ml.
OCAML5_FINDLIB_CONF ?= $(HOME)/.cache/leakfind/ocaml-5.3.0/findlib.conf
NAMES_SRC := agents/ocaml/names_compat.mli agents/ocaml/shapes.ml agents/ocaml/names.ml
names_compat = agents/ocaml/names_compat_$(firstword $(subst ., ,$(1))).ml

# $(call names_tool,DIR,VERSION,ENV): the recipe. The pipe that drops
# findlib's warnings would hide a failed compile: the tool must be new.
define names_tool
	@mkdir -p $(1)
	cp $(NAMES_SRC) $(1)/
	cp $(call names_compat,$(2)) $(1)/names_compat.ml
	rm -f $@
	cd $(1) && $(3) ocamlfind ocamlopt -package compiler-libs.common -linkpkg names_compat.mli \
	  names_compat.ml shapes.ml names.ml -o $(abspath $@) 2>&1 | { grep -v "findlib: \[WARNING\]" || true; }
	test -f $@
endef

$(BUILD)/leakfind-ocaml-names: $(NAMES_SRC) $(call names_compat,$(OCAML_VER))
	$(call names_tool,$(BUILD)/ocaml/names,$(OCAML_VER),)

OCAML5_VER := $(if $(wildcard $(OCAML5_FINDLIB_CONF)),$(shell \
  OCAMLFIND_CONF=$(OCAML5_FINDLIB_CONF) ocamlfind ocamlopt -version 2>/dev/null))
ifneq ($(OCAML5_VER),)
ocaml-agent: $(BUILD)/leakfind-ocaml5-names
$(BUILD)/leakfind-ocaml5-names: $(NAMES_SRC) $(call names_compat,$(OCAML5_VER))
	$(call names_tool,$(BUILD)/ocaml/names5,$(OCAML5_VER),OCAMLFIND_CONF=$(OCAML5_FINDLIB_CONF))
endif
# ---- end of leakfind-ocaml-names

$(AGENT_PKG)/META: agents/ocaml/META
	@mkdir -p $(AGENT_PKG)
	cp $< $@
else
ocaml-agent:
	@echo "ocaml-agent: ocamlfind not found (sh tests/setup.sh installs ocaml-nox ocaml-findlib)" >&2
endif
.PHONY: ocaml-agent
