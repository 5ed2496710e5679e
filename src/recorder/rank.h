/* The process's rank, local rank and world size, from RANK/LOCAL_RANK/WORLD_SIZE (torchrun), Open MPI's
 * OMPI_COMM_WORLD_*, PMI_RANK/PMI_SIZE (MPICH, Intel MPI) or SLURM_PROCID/SLURM_LOCALID/SLURM_NTASKS, as the
 * file's CT_REC_RANK (format.h). */
#ifndef CT_RECORDER_RANK_H
#define CT_RECORDER_RANK_H

#include "cudatrace/format.h"

void ct_rank_record(struct ct_rec_rank *r);

#endif
