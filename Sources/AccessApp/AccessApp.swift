// AccessApp
