#ifndef ACCESSDECK_CQRENCODE_SHIM_H
#define ACCESSDECK_CQRENCODE_SHIM_H

// libqrencode (Debian's libqrencode-dev): the QR code of the two-factor set-up screen comes from a
// kept encoder, not a home-made one. Only QRcode_encodeData and QRcode_free are used (Sources/QRCode).
#include <qrencode.h>

#endif
