/***************************************************************************
 *
 *            (C) Copyright 2010 The Board of Trustees of the
 *                        University of Illinois
 *                         All Rights Reserved
 *
 ***************************************************************************/

void dump_histo_img(unsigned char* histo, unsigned int height, unsigned int width, const char *filename);
