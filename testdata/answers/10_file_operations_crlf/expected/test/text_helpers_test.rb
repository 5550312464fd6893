require "minitest/autorun"
require_relative "../lib/text_helpers"

class TextHelpersTest < Minitest::Test
  def test_titleize
    assert_equal "Hello World", TextHelpers.titleize("hello world")
  end
end
