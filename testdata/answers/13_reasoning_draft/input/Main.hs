{-# LANGUAGE TemplateHaskell #-}
{-# LANGUAGE ViewPatterns #-}
module Main where

import Data.Data (Data)
import GHC.Generics (Generic)

data Tree a = Leaf | Node (Tree a) a (Tree a)
  deriving (Show, Data, Generic)

main :: IO ()
main = print (Node Leaf 1 Leaf :: Tree Int)
