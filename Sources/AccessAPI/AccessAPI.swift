// AccessAPI
