-- graft.hunks: the server's pending hunks drawn inline, in place, without
-- changing the text until one is accepted: the removed lines highlighted
-- (GraftHunkDelete), the added ones as virtual lines under them
-- (GraftHunkAdd), a sign on each hunk (GraftHunkSign). A change within a
-- line highlights the old part and shows the new text beside it. Works on
-- Neovim 0.7.2 (virt_lines since 0.6) and current releases.

local H = {}

-- ns is the namespace of every mark drawn here.
H.ns = vim.api.nvim_create_namespace('graft_hunks')

-- sign is the sign text of a hunk.
H.sign = '▎'

-- byhunk maps a buffer to the pending hunks drawn in it, as the server
-- listed them, sorted by line.
H.byhunk = {}

-- timers holds the debounce timer of each buffer's refresh.
local timers = {}

-- has_inline reports whether virt_text can stand inside a line (0.10).
local has_inline = vim.fn.has('nvim-0.10') == 1

-- define_highlights links the plugin's groups to the diff groups, unless
-- the person or a colour scheme set them.
function H.define_highlights()
  vim.cmd('highlight default link GraftHunkDelete DiffDelete')
  vim.cmd('highlight default link GraftHunkAdd DiffAdd')
  vim.cmd('highlight default link GraftHunkSign DiffChange')
end

-- byte_col returns the byte column of the position character (in the
-- client's encoding) on line.
local function byte_col(line, character, encoding)
  if encoding == 'utf-8' or character == 0 then
    return math.min(character, #line)
  end
  local ok, col
  if vim.fn.has('nvim-0.11') == 1 then
    ok, col = pcall(vim.str_byteindex, line, encoding, character, false)
  else
    ok, col = pcall(vim.str_byteindex, line, character, encoding == 'utf-16')
  end
  return ok and col or #line
end

-- split_lines returns the lines of text, without the newline ending it.
local function split_lines(text)
  text = text:gsub('\r?\n$', '')
  local out = {}
  for l in vim.gsplit(text, '\r?\n') do
    table.insert(out, l)
  end
  return out
end

-- whole_lines reports whether hunk h replaces whole lines with whole lines.
local function whole_lines(h)
  local s, e = h.range.start, h.range['end']
  local function ends(t)
    return t == '' or t:match('\n$') ~= nil
  end
  return s.character == 0 and e.character == 0 and ends(h.oldText or '') and ends(h.newText or '')
end

-- draw_one draws hunk h in buf.
local function draw_one(buf, h, encoding)
  local count = vim.api.nvim_buf_line_count(buf)
  local s, e = h.range.start, h.range['end']
  local srow = math.min(s.line, count)
  if whole_lines(h) then
    local added = h.newText ~= '' and split_lines(h.newText) or {}
    local virt = {}
    for _, l in ipairs(added) do
      table.insert(virt, { { l, 'GraftHunkAdd' } })
    end
    if e.line > s.line then
      -- Removed lines: highlighted in place, to the end of the last (not
      -- to the start of the line after it, which would carry the sign
      -- there too from 0.10), the added ones under the last.
      local erow = math.min(e.line, count)
      local last = vim.api.nvim_buf_get_lines(buf, erow - 1, erow, false)[1] or ''
      vim.api.nvim_buf_set_extmark(buf, H.ns, srow, 0, {
        end_row = erow - 1,
        end_col = #last,
        hl_group = 'GraftHunkDelete',
        hl_eol = true,
        sign_text = H.sign,
        sign_hl_group = 'GraftHunkSign',
        priority = 200,
      })
      if #virt > 0 then
        vim.api.nvim_buf_set_extmark(buf, H.ns, erow - 1, 0, { virt_lines = virt })
      end
    else
      -- An insertion: the added lines above the line they go before, or
      -- under the last line at the end of the buffer.
      local opts = { virt_lines = virt, sign_text = H.sign, sign_hl_group = 'GraftHunkSign' }
      local row = srow
      if srow >= count then
        row = count - 1
      else
        opts.virt_lines_above = true
      end
      vim.api.nvim_buf_set_extmark(buf, H.ns, row, 0, opts)
    end
    return
  end
  -- A change within lines: the old part highlighted, the new text beside
  -- it (inside the line from 0.10, at its end before), its further lines
  -- as virtual lines.
  local lines = vim.api.nvim_buf_get_lines(buf, srow, math.min(e.line, count - 1) + 1, false)
  local scol = byte_col(lines[1] or '', s.character, encoding)
  local erow = math.min(e.line, count - 1)
  local ecol = byte_col(lines[#lines] or '', e.character, encoding)
  local new = split_lines(h.newText or '')
  if (h.newText or ''):match('\n$') then
    table.insert(new, '')
  end
  local opts = { end_row = erow, end_col = ecol, hl_group = 'GraftHunkDelete', sign_text = H.sign, sign_hl_group = 'GraftHunkSign', priority = 200 }
  if new[1] ~= '' then
    opts.virt_text = { { new[1], 'GraftHunkAdd' } }
    if has_inline then
      opts.virt_text_pos = 'inline'
    else
      opts.virt_text = { { '→ ', 'GraftHunkSign' }, { new[1], 'GraftHunkAdd' } }
      opts.virt_text_pos = 'eol'
    end
  end
  -- The mark of the highlight starts where the old part does; the new
  -- text stands after it, so it goes on a mark of its own at the end.
  local virt_text, pos = opts.virt_text, opts.virt_text_pos
  opts.virt_text, opts.virt_text_pos = nil, nil
  vim.api.nvim_buf_set_extmark(buf, H.ns, srow, scol, opts)
  if virt_text or #new > 1 then
    local more = {}
    for i = 2, #new do
      if not (i == #new and new[i] == '') then
        table.insert(more, { { new[i], 'GraftHunkAdd' } })
      end
    end
    vim.api.nvim_buf_set_extmark(buf, H.ns, erow, ecol, {
      virt_text = virt_text,
      virt_text_pos = virt_text and pos or nil,
      virt_lines = #more > 0 and more or nil,
    })
  end
end

-- draw replaces the hunks drawn in buf with hunks (pending ones only).
function H.draw(buf, hunks, encoding)
  if not vim.api.nvim_buf_is_loaded(buf) then
    H.byhunk[buf] = nil
    return
  end
  vim.api.nvim_buf_clear_namespace(buf, H.ns, 0, -1)
  local pending = {}
  for _, h in ipairs(hunks or {}) do
    if h.state ~= 'stale' and h.range then
      table.insert(pending, h)
    end
  end
  table.sort(pending, function(a, b)
    return a.range.start.line < b.range.start.line
  end)
  for _, h in ipairs(pending) do
    local ok, err = pcall(draw_one, buf, h, encoding)
    if not ok then
      vim.notify('graft: drawing hunk ' .. tostring(h.id) .. ': ' .. tostring(err), vim.log.levels.WARN)
    end
  end
  H.byhunk[buf] = #pending > 0 and pending or nil
end

-- last_row returns the last line (0-based) hunk h covers in the buffer.
local function last_row(h)
  local s, e = h.range.start, h.range['end']
  if e.line > s.line and e.character == 0 then
    return e.line - 1
  end
  return math.max(e.line, s.line)
end

-- at returns the hunk of buf on row (0-based), else nil.
function H.at(buf, row)
  for _, h in ipairs(H.byhunk[buf] or {}) do
    if row >= h.range.start.line and row <= last_row(h) then
      return h
    end
  end
  return nil
end

-- next_row returns the first line of the next hunk of buf after row
-- (before it when back), wrapping around; nil without hunks.
function H.next_row(buf, row, back)
  local hunks = H.byhunk[buf] or {}
  if #hunks == 0 then
    return nil
  end
  if back then
    for i = #hunks, 1, -1 do
      if hunks[i].range.start.line < row then
        return hunks[i].range.start.line
      end
    end
    return hunks[#hunks].range.start.line
  end
  for _, h in ipairs(hunks) do
    if h.range.start.line > row then
      return h.range.start.line
    end
  end
  return hunks[1].range.start.line
end

-- debounce runs fn for buf after ms, once for the calls made meanwhile.
-- Each buffer keeps its timer, restarted by each call.
function H.debounce(buf, ms, fn)
  local t = timers[buf]
  if not t then
    t = (vim.uv or vim.loop).new_timer()
    timers[buf] = t
  end
  t:stop()
  t:start(ms, 0, vim.schedule_wrap(fn))
end

return H
