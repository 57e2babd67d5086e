// AccessCore
