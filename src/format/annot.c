#include "config.h"

#include "format/annot.h"

int ct_decode_nvtx(const struct ct_rec_hdr *h, struct ct_nvtx_event *out)
{
    if (h->type != CT_REC_NVTX)
        return 0;
    const struct ct_rec_nvtx *r = (const void *)h;
    *out = (struct ct_nvtx_event){r->t_ns, r->range_id, h->tid, r->name_id, r->category, r->color, r->domain,
                                  r->kind, (r->flags & CT_NVTX_COLOR) != 0};
    return 1;
}

int ct_decode_nvtx_name(const struct ct_rec_hdr *h, struct ct_nvtx_naming *out)
{
    if (h->type != CT_REC_NVTX_NAME)
        return 0;
    const struct ct_rec_nvtx_name *r = (const void *)h;
    *out = (struct ct_nvtx_naming){r->what, r->domain, r->category, r->name_id};
    return 1;
}

int ct_decode_rank(const struct ct_rec_hdr *h, struct ct_rank *out)
{
    if (h->type != CT_REC_RANK)
        return 0;
    const struct ct_rec_rank *r = (const void *)h;
    *out = (struct ct_rank){r->rank, r->local_rank, r->world_size, r->source};
    return 1;
}

int ct_decode_thread(const struct ct_rec_hdr *h, struct ct_thread_name *out)
{
    if (h->type != CT_REC_THREAD)
        return 0;
    const struct ct_rec_thread *r = (const void *)h;
    *out = (struct ct_thread_name){h->tid, r->name_id};
    return 1;
}

int ct_decode_process(const struct ct_rec_hdr *h, struct ct_process *out)
{
    if (h->type != CT_REC_PROCESS)
        return 0;
    const struct ct_rec_process *p = (const void *)h;
    const char *data = (const char *)(p + 1);
    *out = (struct ct_process){data, data + p->host_len, p->host_len, p->cmdline_len, p->argc};
    return 1;
}

int ct_decode_counted(const struct ct_rec_hdr *h, struct ct_counted *out)
{
    if (h->type != CT_REC_COUNTED)
        return 0;
    const struct ct_rec_counted *r = (const void *)h;
    *out = (struct ct_counted){r->api_id, r->count};
    return 1;
}
