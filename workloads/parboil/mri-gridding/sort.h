/***************************************************************************
 *
 *            (C) Copyright 2010 The Board of Trustees of the
 *                        University of Illinois
 *                         All Rights Reserved
 *
 ***************************************************************************/

void sort (int numElems, unsigned int maxValue, unsigned int* &dkeys, unsigned int* &dvalues);
