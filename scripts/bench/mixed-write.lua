-- wrk script: the mixed write load of `make bench`. Per thread, in turn: request a code for a number
-- never used before (inserts a code, a send and an outbox row), verify it with a wrong code (updates
-- the code), cancel it (updates it again), and read the hub (GET /me/auth-methods). The four in turn whatever
-- the answers: once the account's hourly cap refuses request-otp, the verification and the cancel name the
-- last code this thread got (or none, 404), so every run is the same mix.
-- Arguments after `--`: ACCESS_TOKEN RUN (RUN 1-9 keeps every run's numbers apart).

local counter = 0
local step = 0
local last_id = nil
local threads = 0

function setup(thread)
  thread:set("tid", threads)
  threads = threads + 1
end

function init(args)
  run = tonumber(args[2]) or 1
  post_headers = { ["Authorization"] = "Bearer " .. args[1], ["Content-Type"] = "application/json" }
  get_headers = { ["Authorization"] = "Bearer " .. args[1] }
end

function request()
  step = step + 1
  local kind = step % 4
  if kind == 1 then
    counter = counter + 1
    -- +99559 R T NNNNN: a valid Georgian mobile number, unique per run, thread and request.
    local phone = string.format("+99559%d%d%05d", run % 10, tid % 10, counter % 100000)
    return wrk.format("POST", "/auth/phone/request-otp", post_headers,
      '{"phone":"' .. phone .. '","purpose":"add_phone"}')
  elseif kind == 2 then
    return wrk.format("POST", "/auth/phone/verify-otp", post_headers,
      '{"request_id":"' .. (last_id or "otp_none") .. '","code":"000000"}')
  elseif kind == 3 then
    return wrk.format("POST", "/auth/phone/cancel-otp", post_headers,
      '{"request_id":"' .. (last_id or "otp_none") .. '"}')
  else
    return wrk.format("GET", "/me/auth-methods", get_headers)
  end
end

function response(status, headers, body)
  local id = string.match(body, '"request_id"%s*:%s*"([^"]+)"')
  if id then
    last_id = id
  end
end
