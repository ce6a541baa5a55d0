/* $Id: config.h,v 1.1 2008/03/04 17:30:02 stratton Exp $ */

/*############################################################################*/

#ifndef _CONFIG_H_
#define _CONFIG_H_

/*############################################################################*/

//#define SIZE   (100)
//#define SIZE_X (1*SIZE)
//#define SIZE_Y (1*SIZE)
//#define SIZE_Z (130)

#define OMEGA (1.95f)

#define OUTPUT_PRECISION float 

#define BOOL int
#define TRUE (-1)
#define FALSE (0)

/*############################################################################*/

#endif /* _CONFIG_H_ */
