// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The `tryAggregate` entry point of Multicall3, placed at its canonical address on the test node (x402's
/// facilitator uses it to diagnose a failed authorization).
contract Multicall3Lite {
    struct Call {
        address target;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function tryAggregate(bool requireSuccess, Call[] calldata calls) public payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory ret) = calls[i].target.call(calls[i].callData);
            if (requireSuccess) require(success, "Multicall3: call failed");
            returnData[i] = Result(success, ret);
        }
    }
}
