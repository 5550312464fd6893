module Helpers
  def self.titleize(s)
    s.split.map(&:capitalize).join(" ")
  end
end
