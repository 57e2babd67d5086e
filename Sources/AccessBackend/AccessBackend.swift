// AccessBackend
