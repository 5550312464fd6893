# Unused since 2.0.
module LegacyFormat
end
