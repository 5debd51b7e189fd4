/**
 * The node agent: reconcilers that back up and restore the volumes of the pods on one node, by
 * reading and writing their directories under the kubelet's pod directory. They run in the {@code
 * stele node-agent} DaemonSet, one per node, each serving only its own node's requests.
 *
 * <p>Depends on {@code repository} and {@code kube} (repositories, events, settings), stele-core's
 * snapshots and the API; never on the command line.
 */
package dev.stele.operator.nodeagent;
