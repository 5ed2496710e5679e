#!/usr/bin/env python3
"""Generate libcudatrace's driver trampolines from the toolkit's cudaTypedefs.h.

Every `typedef CUresult (CUDAAPI *PFN_<name>_v<version>[_ptsz|_ptds])(<params>);` is one ABI variant of a
driver function.  For each variant this writes (one C file):
  * a row of `ct_variants[]` (function name, exported symbol, version, flags, family): the api ids of the trace;
  * a trampoline with exactly the PFN's parameter list, exported under the variant's symbol name;
  * `ct_trampolines[]`, and `ct_symbol_order[]` (ids sorted by symbol) for look-ups by name;
and a header naming each variant's id and PFN type for hand-written code (CT_ID_<symbol>, CT_PFN_<symbol>).

Exported symbol names are derived, not listed (see derive_symbols).  Argument decoders and hooks are
hand-written C; their prototypes (or, for launches, inline definitions) are read from the --decls headers:
    void ct_dec_<key>(struct ct_pl_<family> *pl, CUresult r, <params>);   only while recording
    void ct_hook_<key>(CUresult r, <params>);                             after every real call
where <key> is `<name>_v<version>` (that variant only) or `<name>` (all its variants, per-thread ones included).
The payload struct named in a decoder's prototype gives the family of the variants it decodes.

The default set of functions counted, not timed (--counted FILE, src/preload/counted_by_default.txt: a name
and its reason a line) starts as ct_api_skip's bytes, and their trampolines test their byte with the gate.

Modes:
    gen-wrappers.py -o wrappers.c --header wrappers.h [--decls H]... [--counted FILE] TYPEDEFS_H...    generate
    gen-wrappers.py --list [--decls H]... TYPEDEFS_H...              one line per variant (tests)
    gen-wrappers.py --verify-requests FILE [--verify-cuda-h CUDA_H]... [--verify-exports FILE] TYPEDEFS_H...
        check the derived names against the real driver's answers, cuda.h's (cudaGL.h's, ...) macros and
        declarations, and an export list

The GL, EGL and VDPAU interop typedef headers (INTEROP) include the windowing systems' headers; configure
passes them only where those are installed, and the generated C includes them under config.h's HAVE_ macros.
"""
import argparse
import os
import re
import sys

PFN_RE = re.compile(
    r'typedef\s+(?P<ret>\w+)\s*\(\s*CUDAAPI\s*\*\s*PFN_(?P<name>\w+?)_v(?P<ver>\d+)(?P<pt>_ptsz|_ptds)?\s*\)'
    r'\s*\((?P<params>[^;]*?)\)\s*;', re.S)
# A prototype (decode.h, hooks.h) or an inline definition (decode_launch.h).
DECL_RE = re.compile(r'^\s*(?:static\s+inline\s+(?:__attribute__\(\(\w+\)\)\s+)?)?void\s+'
                     r'ct_(?P<kind>dec|hook|pre)_(?P<key>\w+)\s*\((?P<params>[^)]*)\)\s*[;{]', re.M)
FAMILIES = {'alloc': 'CT_FAM_ALLOC', 'free': 'CT_FAM_FREE', 'launch': 'CT_FAM_LAUNCH', 'copy': 'CT_FAM_COPY'}
VFLAGS = {'': '0', '_ptsz': 'CT_VARIANT_PTSZ', '_ptds': 'CT_VARIANT_PTDS'}
# Interop typedef headers and the system headers they need (configure's AC_CHECK_HEADERS of each).
INTEROP = {
    'cudaGLTypedefs.h': ('GL/gl.h',),
    'cudaEGLTypedefs.h': ('EGL/egl.h', 'EGL/eglext.h'),
    'cudaVDPAUTypedefs.h': ('vdpau/vdpau.h',),
}


class Variant:
    def __init__(self, name, version, pt, params, header, line):
        self.name, self.version, self.pt = name, version, pt
        self.params = params            # list of (declaration text, parameter name)
        self.header, self.line = header, line
        self.symbol = None
        self.decoder = self.hook = self.pre = self.family = None
        self.counted = False            # in the default set counted, not timed (read_counted)

    @property
    def pfn(self):
        return 'PFN_%s_v%d%s' % (self.name, self.version, self.pt)

    @property
    def key(self):
        return '%s_v%d' % (self.name, self.version)


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def drop_windows_only(text):
    """Blank `#ifdef _WIN32` / `#if defined(_WIN32)` blocks (cuWGLGetDevice): their types exist only on
    Windows.  Lines are kept (empty) so that line numbers stay right."""
    out, depth, skip_at = [], 0, None
    for line in text.split('\n'):
        d = re.match(r'\s*#\s*(\w+)\s*(.*?)\s*$', line)
        kw, rest = (d.group(1), d.group(2)) if d else (None, '')
        blank = skip_at is not None
        if kw in ('if', 'ifdef', 'ifndef'):
            depth += 1
            if skip_at is None and (kw == 'ifdef' and rest == '_WIN32' or
                                    kw == 'if' and re.fullmatch(r'defined\s*\(?\s*_WIN32\s*\)?', rest)):
                skip_at, blank = depth, True
        elif kw in ('else', 'elif') and skip_at == depth:
            skip_at, blank = None, True
        elif kw == 'endif':
            if skip_at == depth:
                skip_at, blank = None, True
            depth -= 1
        out.append('' if blank else line)
    return '\n'.join(out)


def read_source(path):
    with open(path) as f:
        return drop_windows_only(strip_comments(f.read()))


def split_params(text):
    """Split a parameter list at top-level commas; name unnamed parameters a0, a1, ..."""
    text = ' '.join(text.split())
    if text in ('', 'void'):
        return []
    parts, depth, cur = [], 0, ''
    for ch in text:
        if ch == ',' and depth == 0:
            parts.append(cur.strip())
            cur = ''
            continue
        depth += ch in '([' and 1 or (ch in ')]' and -1 or 0)
        cur += ch
    parts.append(cur.strip())
    out = []
    for i, p in enumerate(parts):
        m = re.search(r'\(\s*\*\s*(\w+)\s*\)', p)           # function pointer: void (*fn)(void *)
        if m:
            out.append((p, m.group(1)))
            continue
        m = re.match(r'^(.*?[\s*])(\w+)\s*((?:\[[^\]]*\]\s*)*)$', p)
        words = re.findall(r'\w+', p)
        if m and len(words) >= 2 and m.group(2) not in ('const', 'volatile', 'int', 'char', 'short', 'long',
                                                       'unsigned', 'signed', 'float', 'double', 'void'):
            out.append((p, m.group(2)))
        else:                                                 # a bare type: give it a name
            out.append(('%s a%d' % (p, i), 'a%d' % i))
    return out


def parse_headers(paths):
    variants, skipped = [], []
    for path in paths:
        text = read_source(path)
        for m in PFN_RE.finditer(text):
            line = text.count('\n', 0, m.start()) + 1
            if m.group('ret') != 'CUresult':
                skipped.append('%s:%d: PFN_%s_v%s%s returns %s' % (path, line, m.group('name'), m.group('ver'),
                                                                   m.group('pt') or '', m.group('ret')))
                continue
            variants.append(Variant(m.group('name'), int(m.group('ver')), m.group('pt') or '',
                                    split_params(m.group('params')), path, line))
        # Anything else that names a PFN_ typedef and did not parse is reported, never silently dropped.
        for m in re.finditer(r'typedef[^;]*\bPFN_(\w+)[^;]*;', text):
            if not PFN_RE.match(m.group(0)):
                skipped.append('%s: unparsed typedef PFN_%s' % (path, m.group(1)))
    seen = {}
    for v in variants:
        k = (v.name, v.version, v.pt)
        if k in seen:
            sys.exit('gen-wrappers: %s:%d: %s defined twice' % (v.header, v.line, v.pfn))
        seen[k] = v
    return variants, skipped


def derive_symbols(variants):
    """Exported symbol of each variant.

    The driver exports a function's ABI variants as name, name_v2, name_v3, ... in the order of the versions
    that introduced them (cuCtxCreate 2000, 3020, 11040, 12050 -> cuCtxCreate, _v2, _v3, _v4), and a
    per-thread variant introduced at version V as the symbol of the newest default-stream variant at or before
    V plus _ptsz/_ptds (cuMemcpyHtoD_v7000_ptds -> cuMemcpyHtoD_v2_ptds, cuLaunchKernel_v7000_ptsz ->
    cuLaunchKernel_ptsz).  Checked against the CUDA 13.0 runtime's 440 requests, cuda.h's macros and the
    toolkit's link stub (--verify-*): no exception is needed for CUDA 13.0.
    """
    by_name = {}
    for v in variants:
        by_name.setdefault(v.name, []).append(v)
    for name, vs in by_name.items():
        base = sorted((v for v in vs if not v.pt), key=lambda v: v.version)
        for i, v in enumerate(base):
            v.symbol = name if i == 0 else '%s_v%d' % (name, i + 1)
        for v in vs:
            if v.pt:
                older = [b for b in base if b.version <= v.version]
                if not older:
                    sys.exit('gen-wrappers: %s:%d: %s has no default-stream variant at or before it'
                             % (v.header, v.line, v.pfn))
                v.symbol = older[-1].symbol + v.pt
    return by_name


def read_decls(paths):
    decls = {}
    for path in paths:
        with open(path) as f:
            text = strip_comments(f.read())
        for m in DECL_RE.finditer(text):
            family = None
            if m.group('kind') == 'dec':
                fm = re.match(r'\s*struct\s+ct_pl_(\w+)\s*\*', m.group('params'))
                if not fm or fm.group(1) not in FAMILIES:
                    sys.exit('gen-wrappers: %s: ct_dec_%s: first parameter must be struct ct_pl_<family> *'
                             % (path, m.group('key')))
                family = fm.group(1)
            decls[(m.group('kind'), m.group('key'))] = family
    return decls


def attach_decls(variants, decls):
    used = set()
    for v in variants:
        for kind in ('dec', 'hook', 'pre'):
            for key in (v.key, v.name):
                if (kind, key) in decls:
                    used.add((kind, key))
                    if kind == 'dec':
                        v.decoder, v.family = key, decls[(kind, key)]
                    elif kind == 'hook':
                        v.hook = key
                    else:
                        v.pre = key
                    break
    unused = sorted(set(decls) - used)
    if unused:
        sys.exit('gen-wrappers: declared for no variant: %s'
                 % ', '.join('ct_%s_%s' % k for k in unused))


def read_counted(path, by_name):
    """The default set (--counted FILE): `NAME REASON` a line, '#' comments.  Marks every variant of each
    function; a name the headers lack, a name given twice or one without its reason is an error."""
    seen = set()
    with open(path) as f:
        for n, line in enumerate(f, 1):
            fields = line.split(None, 1)
            if not fields or fields[0].startswith('#'):
                continue
            name = fields[0]
            if name not in by_name:
                sys.exit('gen-wrappers: %s:%d: %s is no function of the headers' % (path, n, name))
            if name in seen:
                sys.exit('gen-wrappers: %s:%d: %s listed twice' % (path, n, name))
            if len(fields) < 2 or not fields[1].strip():
                sys.exit('gen-wrappers: %s:%d: %s: say why it is counted, not timed' % (path, n, name))
            seen.add(name)
            for v in by_name[name]:
                v.counted = True


def c_string(s):
    return '"%s"' % s


def generate(variants, headers, decl_headers, own_header, out):
    w = out.write
    w('/* Generated by scripts/gen-wrappers.py from %s: do not edit. */\n'
      % ', '.join(h.rsplit('/', 1)[-1] for h in headers))
    w('#include "config.h"\n\n#include "preload/trampoline.h"\n')
    if own_header:
        w('#include "%s"\n' % own_header.rsplit('/', 1)[-1])
    for h in headers + decl_headers:
        needs = INTEROP.get(os.path.basename(h))
        if needs:
            w('#if %s\n' % ' && '.join('defined(%s)' % have_macro(n) for n in needs))
        w('#include %s\n' % (include_name(h) if h in decl_headers else '<%s>' % os.path.basename(h)))
        if needs:
            w('#else\n#error "%s needs %s, which configure did not find: regenerate this file"\n#endif\n'
              % (os.path.basename(h), ' and '.join(needs)))
    w('\nconst struct ct_variant ct_variants[] = {\n')
    for v in variants:
        w('    {%s, %s, %d, %s, %s},\n' % (c_string(v.name), c_string(v.symbol), v.version, VFLAGS[v.pt],
                                           FAMILIES.get(v.family, 'CT_FAM_NONE')))
    w('};\nconst unsigned ct_variant_count = %d;\n\n' % len(variants))
    w('/* Variant ids in strcmp order of their symbols, for look-ups by name. */\n')
    w('const uint16_t ct_symbol_order[] = {\n')
    order = sorted(range(len(variants)), key=lambda i: variants[i].symbol.encode())
    for i in range(0, len(order), 16):
        w('    %s,\n' % ', '.join(str(x) for x in order[i:i + 16]))
    w('};\n\n')
    w('/* Real driver functions, by variant id: filled once the driver is found (interpose.c). */\n')
    w('void *ct_real[CT_API_COUNT];\n')
    w('/* Variants counted, not timed (recorder/apis.h): the default set until CUDATRACE_APIS says otherwise; and\n'
      ' * their successful calls. */\n')
    counted = ''.join('    [CT_ID_%s] = 1,\n' % v.symbol for v in variants if v.counted)
    w('uint8_t ct_api_skip[CT_API_COUNT]%s;\n' % (' = {\n%s}' % counted if counted else ''))
    w('_Atomic uint64_t ct_api_counted[CT_API_COUNT];\n\n')
    for v in variants:
        emit_trampoline(w, v)
    w('void (*const ct_trampolines[])(void) = {\n')
    for v in variants:
        w('    (void (*)(void))ct_tr_%s,\n' % v.symbol)
    w('};\n')


def include_name(path):
    """How wrappers.c includes one of the project's headers: relative to src/ ("preload/decode.h"), as the
    hand-written code does, never by the build machine's absolute path (the toolkit's go by name)."""
    parts = os.path.normpath(path).split(os.sep)
    if 'src' in parts[:-1]:
        return '"%s"' % '/'.join(parts[len(parts) - 1 - parts[::-1].index('src') + 1:])
    return '<%s>' % parts[-1]


def have_macro(header):
    """The macro AC_CHECK_HEADERS defines for a header: GL/gl.h -> HAVE_GL_GL_H."""
    return 'HAVE_' + re.sub(r'[^A-Za-z0-9]', '_', header).upper()


def emit_trampoline(w, v):
    decl = ', '.join(p for p, _ in v.params) or 'void'
    args = ', '.join(n for _, n in v.params)
    comma_args = (', ' + args) if args else ''
    fn = 'ct_tr_%s' % v.symbol
    vid = 'CT_ID_%s' % v.symbol
    w('/* %s (%s:%d) */\n' % (v.pfn, v.header.rsplit('/', 1)[-1], v.line))
    w('CT_EXPORT CUresult %s(%s) __asm__("%s");\n' % (fn, decl, v.symbol))
    # Launches are the calls programs make by the hundred thousand: their trampolines sit with the launch
    # path's helpers (hot.h).
    w('%sCUresult %s(%s)\n{\n' % ('CT_HOT_CODE ' if v.family == 'launch' else '', fn, decl))
    w('    %s real = (%s)CT_REAL(%s);\n' % (v.pfn, v.pfn, vid))
    w('    if (__builtin_expect(real == NULL, 0) && (real = (%s)ct_resolve(%s)) == NULL)\n' % (v.pfn, vid))
    w('        return ct_missing(%s);\n' % vid)
    # One test lets a recorded call through (ct_guard | ct_gate both 0, capture.h, and for a variant of the
    # default set its byte of ct_api_skip 0).  Otherwise: a call made while the thread is inside the tracer
    # (ct_guard: the tracer's own calls, or a signal handler's that interrupted a trampoline's recording)
    # passes untouched, counted (ct_guard_passed); outside a capture range, or counted, not timed (the
    # default set, or CUDATRACE_APIS), a call is not timed either, but its hook still runs (ct_unrecorded,
    # ct_passed: trampoline.h); a variant a filter leaves in goes on to be recorded.
    pre = ('    ct_busy_enter();\n    ct_pre_%s(%s);\n    ct_busy_leave();\n' % (v.pre, args)) if v.pre else ''
    if v.pre and not v.hook:
        sys.exit('gen-wrappers: ct_pre_%s needs a ct_hook_ after it' % v.pre)
    w('    if (__builtin_expect(ct_guard | ct_gate%s, 0)) {\n' % (' | ct_api_skip[%s]' % vid if v.counted else ''))
    w('        if (ct_guard) {\n            ct_guard_passed();\n            return real(%s);\n        }\n' % args)
    w('        const int how = ct_unrecorded(%s);\n' % vid)
    if v.hook:
        w('        if (how) {\n%s            CUresult r = real(%s);\n'
          % (''.join('        ' + line + '\n' for line in pre.splitlines()), args))
        w('            ct_busy_enter();\n            ct_hook_%s(r%s);\n            ct_busy_leave();\n'
          '            return ct_passed(%s, how, r);\n        }\n' % (v.hook, comma_args, vid))
    else:
        w('        if (how)\n            return ct_passed(%s, how, real(%s));\n' % (vid, args))
    w('    }\n')
    w(pre)
    gpu = gpu_exprs(v)
    if gpu:
        # GPU time (gputime/gputime.h): ct_gpu_begin just before the call (an events start event goes on the
        # call's stream).
        w('    struct ct_gpu_call *gp = NULL;\n')
        w('    if (ct_gpu_mode != CT_GPU_OFF%s) {\n        ct_busy_enter();\n' % (' && ' + gpu[2] if gpu[2] else ''))
        w('        int pick = ct_gpu_choose(%s);\n        if (pick)\n            gp = ct_gpu_begin(%s, %s, pick);\n'
          % (gpu[1], vid, gpu[0]))
        w('        ct_busy_leave();\n    }\n')
    # From the call's return to its record's commit the thread is inside the tracer (trampoline.h).
    w('    uint64_t t0 = ct_now();\n    CUresult r = real(%s);\n    uint64_t t1 = ct_now();\n' % args)
    w('    ct_busy_enter();\n')
    if gpu:
        w('    if (gp)\n        ct_gpu_returned(gp);\n')
    if v.hook:
        w('    ct_hook_%s(r%s);\n' % (v.hook, comma_args))
    if v.decoder and v.family == 'launch':
        # Decoded on the stack, its name left out: the recorder's shortcut writes a repeat record when the
        # thread's last launch of this function had the same payload (format.h, launch shapes), and only
        # otherwise is the kernel's name looked up and the full record written.
        w('    if (ct_rec_wanted()) {\n')
        w('        uint32_t name_gen = __atomic_load_n(&ct_kernel_name_generation, __ATOMIC_ACQUIRE);\n')
        w('        struct ct_pl_launch pl;\n')
        w('        ct_dec_%s(&pl, r%s);\n' % (v.decoder, comma_args))
        w('        if (!ct_rec_launch_again(%s, r, t0, t1, &pl, name_gen)) {\n' % vid)
        w('            pl.name_id = ct_launch_name_id(&pl);\n')
        w('            ct_rec_launch(%s, r, t0, t1, &pl, ct_stack_id(CT_FAM_LAUNCH), name_gen);\n' % vid)
        w('        }\n')
        emit_close(w, gpu, 'ct_gpu_end_launch(gp, r, &pl)')
        return
    if not v.decoder and not gpu:
        # Most calls of a framework's step are cheap queries like these: a 16-byte short record (format.h,
        # CT_REC_CALL_SHORT) where it can stand for the call.
        w('    if (__builtin_expect(ct_stack_wanted(CT_FAM_NONE), 0)) {\n')
        w('        struct ct_rec_call *c = ct_rec_call_begin(sizeof *c, %s, CT_FAM_NONE, r, t0, t1);\n' % vid)
        w('        if (c) {\n    ')
        emit_stack_hook(w, v)
        w('            ct_rec_commit(c);\n        }\n    } else\n')
        w('        ct_rec_plain(%s, r, t0, t1);\n' % vid)
        w('    ct_busy_leave();\n    return r;\n}\n\n')
        return
    if v.decoder:
        size = 'sizeof(struct ct_rec_call) + sizeof(struct ct_pl_%s)' % v.family
        w('    struct ct_rec_call *c = ct_rec_call_begin(%s, %s, %s, r, t0, t1);\n' % (size, vid, FAMILIES[v.family]))
        w('    if (c) {\n')
        w('        ct_dec_%s((struct ct_pl_%s *)(c + 1), r%s);\n' % (v.decoder, v.family, comma_args))
    else:
        w('    struct ct_rec_call *c = ct_rec_call_begin(sizeof *c, %s, CT_FAM_NONE, r, t0, t1);\n' % vid)
        w('    if (c) {\n')
    emit_stack_hook(w, v)
    w('        ct_rec_commit(c);\n')
    # The end event after the commit, so that the collector never has a span whose call is not in the ring;
    # the payload stays readable (only this thread writes its ring).
    emit_close(w, gpu, 'ct_gpu_end_copy(gp, r, (const struct ct_pl_copy *)(c + 1))')


def emit_close(w, gpu, gpu_end):
    """Close the block that writes the record, then the trampoline.  A timed call (gputime/gputime.h) is
    ended by gpu_end inside that block, where there is a record, and dropped after it where there is none."""
    if gpu:
        w('        if (gp) {\n            %s;\n            gp = NULL;\n        }\n' % gpu_end)
    w('    }\n')
    if gpu:
        w('    if (gp)\n        ct_gpu_drop(gp);\n')
    w('    ct_busy_leave();\n    return r;\n}\n\n')


def gpu_exprs(v):
    """GPU time (src/gputime/gputime.h): the C expressions of a timed variant's stream, kind key and a condition
    for timing it at all (None: always), or None.
    Launches of GPU work (kernels, graphs) and copies and sets are timed; cuLaunchHostFunc runs on the host.
    A per-thread variant's stream 0 is the thread's default stream; a variant without a stream uses the
    default stream."""
    if v.family not in ('launch', 'copy') or v.name == 'cuLaunchHostFunc':
        return None
    names = [n for _, n in v.params]
    vid = 'CT_ID_%s' % v.symbol
    stream = 'hStream' if 'hStream' in names else '(config ? config->hStream : NULL)' if 'config' in names \
        else 'NULL'
    if v.pt:
        stream = 'ct_gpu_pt_stream(%s)' % stream
    if v.family == 'launch':
        if 'gridDimX' in names:
            shape = 'gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ'
        elif 'grid_width' in names:
            shape = '(unsigned)grid_width, (unsigned)grid_height, 1, 0, 0, 0'
        else:
            shape = '0, 0, 0, 0, 0, 0'
        fn = 'f' if 'f' in names else names[0]   # cuGraphLaunch: the executable graph
        if 'config' in names:
            # A programmatic dependent launch is left untimed: an event between it and the kernel before
            # would make it wait for that kernel's end (gputime.h, ct_gpu_timeable).
            return stream, ('(config ? ct_gpu_key_launch(%s, %s, ct_kernel_name_generation, config->gridDimX, '
                            'config->gridDimY, config->gridDimZ, config->blockDimX, config->blockDimY, '
                            'config->blockDimZ) : %s)' % (vid, fn, vid)), 'ct_gpu_timeable(config)'
        return stream, 'ct_gpu_key_launch(%s, %s, ct_kernel_name_generation, %s)' % (vid, fn, shape), None
    for size in ('ByteCount', 'N', 'count', 'numParams'):
        if size in names:
            break
    else:
        if 'Width' in names:
            size = '(uint64_t)Width * Height'
        elif 'pCopy' in names:
            size = '(pCopy ? (uint64_t)pCopy->WidthInBytes * pCopy->Height : 0)'
        else:
            sys.exit('gen-wrappers: %s:%d: no size to key GPU timing of %s by' % (v.header, v.line, v.pfn))
    return stream, 'ct_gpu_key_size(%s, %s)' % (vid, size), None


def emit_stack_hook(w, v):
    """Call stacks (stacks.h): an inline check of the family's bit, the capture only when it is set."""
    w('        c->stack_id = ct_stack_id(%s);\n' % FAMILIES.get(v.family, 'CT_FAM_NONE'))


def generate_header(variants, headers, out):
    w = out.write
    w('/* Generated by scripts/gen-wrappers.py from %s: do not edit. */\n'
      % ', '.join(h.rsplit('/', 1)[-1] for h in headers))
    w('#ifndef CT_PRELOAD_WRAPPERS_H\n#define CT_PRELOAD_WRAPPERS_H\n\n#include <stdatomic.h>\n#include <stdint.h>\n\n'
      '#include "recorder/variants.h"\n\n')
    w('/* Api id (index into ct_variants) and PFN type of every exported variant symbol. */\nenum ct_api_id {\n')
    for i, v in enumerate(variants):
        w('    CT_ID_%s = %d,\n' % (v.symbol, i))
    w('    CT_API_COUNT = %d\n};\n\n' % len(variants))
    for v in variants:
        w('#define CT_PFN_%s %s\n' % (v.symbol, v.pfn))
    w('\n/* The trampoline of each variant, by api id. */\nextern void (*const ct_trampolines[])(void);\n')
    w('/* Api ids sorted by symbol (strcmp order). */\nextern const uint16_t ct_symbol_order[];\n')
    w('/* Every variant, by api id: what the recorder writes into each trace (recorder/variants.h). */\n'
      'extern const struct ct_variant ct_variants[];\nextern const unsigned ct_variant_count;\n')
    w('/* Counted, not timed (recorder/apis.h): 1 where a variant is, and the successful calls of each. */\n'
      'extern uint8_t ct_api_skip[];\nextern _Atomic uint64_t ct_api_counted[];\n')
    w('\n#endif\n')


def write_atomically(path, fill):
    tmp = path + '.tmp'
    with open(tmp, 'w') as out:
        fill(out)
    os.replace(tmp, path)


def list_variants(variants, out):
    for v in variants:
        out.write('%s %s %d %s %s dec=%s hook=%s | %s\n' % (
            v.name, v.symbol, v.version, v.pt[1:] or 'none', v.family or 'none', v.decoder or '-',
            v.hook or '-', ', '.join('%s=%s' % (n, p) for p, n in v.params) or 'void'))


def verify(variants, by_name, args):
    """Return a list of mismatches between the derived names and the toolkit/driver's own."""
    errors = []
    symbols = {v.symbol for v in variants}
    if args.verify_requests:
        unknown = set()
        checked = 0
        with open(args.verify_requests) as f:
            for n, line in enumerate(f, 1):
                fields = line.split()
                if not fields or fields[0].startswith('#') or fields[0] == '""':
                    continue
                sym, version, flags, expected = fields[0], int(fields[1]), int(fields[2], 16), fields[3]
                if sym not in by_name:
                    unknown.add(sym)   # functions of headers not given (GL, EGL, VDPAU interop)
                    continue
                pt = bool(flags & 0x2)
                cands = [v for v in by_name[sym] if v.version <= version and bool(v.pt) == pt]
                if not cands and pt:   # a function with no per-thread variant answers with its default one
                    cands = [v for v in by_name[sym] if v.version <= version and not v.pt]
                got = max(cands, key=lambda v: v.version).symbol if cands else '(none)'
                checked += 1
                if got != expected:
                    errors.append('%s:%d: %s %d 0x%x: driver returns %s, derived %s'
                                  % (args.verify_requests, n, sym, version, flags, expected, got))
        print('requests: %d rows checked, functions not in the headers: %s'
              % (checked, ' '.join(sorted(unknown)) or 'none'))
        allowed = re.compile(r'^cu(GL|EGL|VDPAU|Graphics(GL|EGL|VDPAU)|GraphicsResourceGetMappedEgl)')
        errors += ['request for %s: not in the headers and not an interop function' % s
                   for s in sorted(unknown) if not allowed.match(s)]
    for api_h in args.verify_cuda_h:
        # `#define cuX cuX_vN` (the newest variant), `#define cuX __CUDA_API_PTSZ(cuX_vN)` (also needs
        # cuX_vN_ptsz), `#define cuX __CUDA_API_PTSZ(cuX)` (per-thread builds only: needs cuX_ptsz).
        text = read_source(api_h)
        by_symbol = {v.symbol: v for v in variants}
        n = 0
        for m in re.finditer(r'^\s*#\s*define\s+(cu\w+)\s+(?:__CUDA_API_(PTDS|PTSZ)\(\s*(cu\w+)\s*\)|(cu\w+))\s*$',
                             text, re.M):
            macro, pt, target = m.group(1), m.group(2), m.group(3) or m.group(4)
            if re.search(r'static\s+inline\s+CUresult\s+%s\s*\(' % target, text):
                continue       # cuGetProcAddress_v2 -> cuGetProcAddress_v2_ptsz: an inline in cuda.h
            n += 1
            if target not in by_symbol:
                errors.append('%s maps %s to %s: not derived' % (os.path.basename(api_h), macro, target))
                continue
            if pt and target + '_' + pt.lower() not in by_symbol:
                errors.append('%s maps %s to %s_%s: not derived' % (os.path.basename(api_h), macro, target, pt.lower()))
            func = by_symbol[target].name
            if target == macro or func != macro:
                continue       # identity (per-thread only), or another function (cuGraphInstantiate)
            newest = max((v for v in by_name[func] if not v.pt), key=lambda v: v.version).symbol
            if target != newest:
                errors.append('%s maps %s to %s, derived newest %s' % (os.path.basename(api_h), macro, target, newest))
        # Every function the header declares (the legacy ones under __CUDA_API_VERSION_INTERNAL included) is
        # an exported name: it must be a derived symbol.
        declared = set(re.findall(r'\bCUresult\s+CUDAAPI\s+(cu\w+)\s*\(', text))
        errors += ['%s declares %s: not derived' % (os.path.basename(api_h), s) for s in sorted(declared - symbols)]
        print('%s: %d mappings, %d declarations checked' % (os.path.basename(api_h), n, len(declared)))
    if args.verify_exports:
        with open(args.verify_exports) as f:
            exports = {l.strip() for l in f if l.strip().startswith('cu')}
        # The toolkit's link stub (13.0) leaves out the interop functions the real driver exports: an interop
        # header none of whose symbols the list has is not compared (its names are checked by the others).
        absent = set()
        for h in sorted({os.path.basename(v.header) for v in variants} & set(INTEROP)):
            hs = {v.symbol for v in variants if os.path.basename(v.header) == h}
            if not hs & exports:
                absent |= hs
                print('exports: none of the %d symbols of %s in the list: not compared' % (len(hs), h))
        for s in sorted(exports - symbols):
            errors.append('exported by the stub, not derived: %s' % s)
        for s in sorted(symbols - exports - absent):
            errors.append('derived, not exported by the stub: %s' % s)
        print('exports: %d stub symbols compared' % len(exports))
    return errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('headers', nargs='+', help='cudaTypedefs.h and other *Typedefs.h')
    ap.add_argument('-o', '--output', help='generated C file')
    ap.add_argument('--header', help='generated header (api ids, PFN types)')
    ap.add_argument('--decls', action='append', default=[], help='header declaring ct_dec_/ct_hook_ functions')
    ap.add_argument('--counted', metavar='FILE', help='the default set of functions counted, not timed')
    ap.add_argument('--list', action='store_true', help='print the variants')
    ap.add_argument('--verify-requests', metavar='FILE')
    ap.add_argument('--verify-cuda-h', metavar='CUDA_H', action='append', default=[],
                    help="cuda.h, cudaGL.h, ...: their name macros and declarations")
    ap.add_argument('--verify-exports', metavar='FILE', help="the driver's exported names, one per line")
    args = ap.parse_args()

    variants, skipped = parse_headers(args.headers)
    by_name = derive_symbols(variants)
    attach_decls(variants, read_decls(args.decls))
    if args.counted:
        read_counted(args.counted, by_name)
    for s in skipped:
        sys.stderr.write('gen-wrappers: skipped %s\n' % s)
    if args.list:
        list_variants(variants, sys.stdout)
    if args.verify_requests or args.verify_cuda_h or args.verify_exports:
        errors = verify(variants, by_name, args)
        for e in errors:
            sys.stderr.write('gen-wrappers: MISMATCH %s\n' % e)
        if errors:
            return 1
    if args.output:
        if len(variants) > 65535:
            sys.exit('gen-wrappers: too many variants for 16-bit api ids')
        write_atomically(args.output, lambda out: generate(variants, args.headers, args.decls, args.header, out))
        sys.stderr.write('gen-wrappers: %d variants of %d functions -> %s\n'
                         % (len(variants), len(by_name), args.output))
    if args.header:
        write_atomically(args.header, lambda out: generate_header(variants, args.headers, out))
    return 0


if __name__ == '__main__':
    sys.exit(main())
