//! The C structures of `cudart::props` against CUDA 13's headers: every
//! field's offset and each structure's size, as the C compiler lays them out.

use cudart::props::{offsets, DeviceProp, FuncAttributes};
use std::process::Command;

#[test]
fn structures_match_the_cuda_headers() {
    let nvcc = kernel::compile::find_nvcc().expect("nvcc (make setup installs it)");
    let include = nvcc.parent().unwrap().parent().unwrap().join("include");
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("layout");
    std::fs::create_dir_all(&dir).unwrap();
    let rust: Vec<(&str, usize)> = vec![
        ("sizeof cudaDeviceProp", std::mem::size_of::<DeviceProp>()),
        ("sizeof cudaFuncAttributes", std::mem::size_of::<FuncAttributes>()),
        ("cudaDeviceProp.name", std::mem::offset_of!(DeviceProp, name)),
        ("cudaDeviceProp.uuid", std::mem::offset_of!(DeviceProp, uuid)),
        ("cudaDeviceProp.luid", std::mem::offset_of!(DeviceProp, luid)),
        ("cudaDeviceProp.luidDeviceNodeMask", std::mem::offset_of!(DeviceProp, luidDeviceNodeMask)),
        ("cudaDeviceProp.totalGlobalMem", std::mem::offset_of!(DeviceProp, totalGlobalMem)),
        ("cudaDeviceProp.sharedMemPerBlock", std::mem::offset_of!(DeviceProp, sharedMemPerBlock)),
        ("cudaDeviceProp.regsPerBlock", std::mem::offset_of!(DeviceProp, regsPerBlock)),
        ("cudaDeviceProp.warpSize", std::mem::offset_of!(DeviceProp, warpSize)),
        ("cudaDeviceProp.memPitch", std::mem::offset_of!(DeviceProp, memPitch)),
        ("cudaDeviceProp.maxThreadsPerBlock", std::mem::offset_of!(DeviceProp, maxThreadsPerBlock)),
        ("cudaDeviceProp.maxThreadsDim", std::mem::offset_of!(DeviceProp, maxThreadsDim)),
        ("cudaDeviceProp.maxGridSize", std::mem::offset_of!(DeviceProp, maxGridSize)),
        ("cudaDeviceProp.totalConstMem", std::mem::offset_of!(DeviceProp, totalConstMem)),
        ("cudaDeviceProp.major", std::mem::offset_of!(DeviceProp, major)),
        ("cudaDeviceProp.minor", std::mem::offset_of!(DeviceProp, minor)),
        ("cudaDeviceProp.textureAlignment", std::mem::offset_of!(DeviceProp, textureAlignment)),
        ("cudaDeviceProp.texturePitchAlignment", std::mem::offset_of!(DeviceProp, texturePitchAlignment)),
        ("cudaDeviceProp.multiProcessorCount", std::mem::offset_of!(DeviceProp, multiProcessorCount)),
        ("cudaDeviceProp.integrated", std::mem::offset_of!(DeviceProp, integrated)),
        ("cudaDeviceProp.canMapHostMemory", std::mem::offset_of!(DeviceProp, canMapHostMemory)),
        ("cudaDeviceProp.maxTexture1D", std::mem::offset_of!(DeviceProp, maxTexture1D)),
        ("cudaDeviceProp.maxTexture1DMipmap", std::mem::offset_of!(DeviceProp, maxTexture1DMipmap)),
        ("cudaDeviceProp.maxTexture2D", std::mem::offset_of!(DeviceProp, maxTexture2D)),
        ("cudaDeviceProp.maxTexture2DMipmap", std::mem::offset_of!(DeviceProp, maxTexture2DMipmap)),
        ("cudaDeviceProp.maxTexture2DLinear", std::mem::offset_of!(DeviceProp, maxTexture2DLinear)),
        ("cudaDeviceProp.maxTexture2DGather", std::mem::offset_of!(DeviceProp, maxTexture2DGather)),
        ("cudaDeviceProp.maxTexture3D", std::mem::offset_of!(DeviceProp, maxTexture3D)),
        ("cudaDeviceProp.maxTexture3DAlt", std::mem::offset_of!(DeviceProp, maxTexture3DAlt)),
        ("cudaDeviceProp.maxTextureCubemap", std::mem::offset_of!(DeviceProp, maxTextureCubemap)),
        ("cudaDeviceProp.maxTexture1DLayered", std::mem::offset_of!(DeviceProp, maxTexture1DLayered)),
        ("cudaDeviceProp.maxTexture2DLayered", std::mem::offset_of!(DeviceProp, maxTexture2DLayered)),
        ("cudaDeviceProp.maxTextureCubemapLayered", std::mem::offset_of!(DeviceProp, maxTextureCubemapLayered)),
        ("cudaDeviceProp.maxSurface1D", std::mem::offset_of!(DeviceProp, maxSurface1D)),
        ("cudaDeviceProp.maxSurface2D", std::mem::offset_of!(DeviceProp, maxSurface2D)),
        ("cudaDeviceProp.maxSurface3D", std::mem::offset_of!(DeviceProp, maxSurface3D)),
        ("cudaDeviceProp.maxSurface1DLayered", std::mem::offset_of!(DeviceProp, maxSurface1DLayered)),
        ("cudaDeviceProp.maxSurface2DLayered", std::mem::offset_of!(DeviceProp, maxSurface2DLayered)),
        ("cudaDeviceProp.maxSurfaceCubemap", std::mem::offset_of!(DeviceProp, maxSurfaceCubemap)),
        ("cudaDeviceProp.maxSurfaceCubemapLayered", std::mem::offset_of!(DeviceProp, maxSurfaceCubemapLayered)),
        ("cudaDeviceProp.surfaceAlignment", std::mem::offset_of!(DeviceProp, surfaceAlignment)),
        ("cudaDeviceProp.concurrentKernels", std::mem::offset_of!(DeviceProp, concurrentKernels)),
        ("cudaDeviceProp.ECCEnabled", std::mem::offset_of!(DeviceProp, ECCEnabled)),
        ("cudaDeviceProp.pciBusID", std::mem::offset_of!(DeviceProp, pciBusID)),
        ("cudaDeviceProp.pciDeviceID", std::mem::offset_of!(DeviceProp, pciDeviceID)),
        ("cudaDeviceProp.pciDomainID", std::mem::offset_of!(DeviceProp, pciDomainID)),
        ("cudaDeviceProp.tccDriver", std::mem::offset_of!(DeviceProp, tccDriver)),
        ("cudaDeviceProp.asyncEngineCount", std::mem::offset_of!(DeviceProp, asyncEngineCount)),
        ("cudaDeviceProp.unifiedAddressing", std::mem::offset_of!(DeviceProp, unifiedAddressing)),
        ("cudaDeviceProp.memoryBusWidth", std::mem::offset_of!(DeviceProp, memoryBusWidth)),
        ("cudaDeviceProp.l2CacheSize", std::mem::offset_of!(DeviceProp, l2CacheSize)),
        ("cudaDeviceProp.persistingL2CacheMaxSize", std::mem::offset_of!(DeviceProp, persistingL2CacheMaxSize)),
        ("cudaDeviceProp.maxThreadsPerMultiProcessor", std::mem::offset_of!(DeviceProp, maxThreadsPerMultiProcessor)),
        ("cudaDeviceProp.streamPrioritiesSupported", std::mem::offset_of!(DeviceProp, streamPrioritiesSupported)),
        ("cudaDeviceProp.globalL1CacheSupported", std::mem::offset_of!(DeviceProp, globalL1CacheSupported)),
        ("cudaDeviceProp.localL1CacheSupported", std::mem::offset_of!(DeviceProp, localL1CacheSupported)),
        ("cudaDeviceProp.sharedMemPerMultiprocessor", std::mem::offset_of!(DeviceProp, sharedMemPerMultiprocessor)),
        ("cudaDeviceProp.regsPerMultiprocessor", std::mem::offset_of!(DeviceProp, regsPerMultiprocessor)),
        ("cudaDeviceProp.managedMemory", std::mem::offset_of!(DeviceProp, managedMemory)),
        ("cudaDeviceProp.isMultiGpuBoard", std::mem::offset_of!(DeviceProp, isMultiGpuBoard)),
        ("cudaDeviceProp.multiGpuBoardGroupID", std::mem::offset_of!(DeviceProp, multiGpuBoardGroupID)),
        ("cudaDeviceProp.hostNativeAtomicSupported", std::mem::offset_of!(DeviceProp, hostNativeAtomicSupported)),
        ("cudaDeviceProp.pageableMemoryAccess", std::mem::offset_of!(DeviceProp, pageableMemoryAccess)),
        ("cudaDeviceProp.concurrentManagedAccess", std::mem::offset_of!(DeviceProp, concurrentManagedAccess)),
        ("cudaDeviceProp.computePreemptionSupported", std::mem::offset_of!(DeviceProp, computePreemptionSupported)),
        ("cudaDeviceProp.canUseHostPointerForRegisteredMem", std::mem::offset_of!(DeviceProp, canUseHostPointerForRegisteredMem)),
        ("cudaDeviceProp.cooperativeLaunch", std::mem::offset_of!(DeviceProp, cooperativeLaunch)),
        ("cudaDeviceProp.sharedMemPerBlockOptin", std::mem::offset_of!(DeviceProp, sharedMemPerBlockOptin)),
        ("cudaDeviceProp.pageableMemoryAccessUsesHostPageTables", std::mem::offset_of!(DeviceProp, pageableMemoryAccessUsesHostPageTables)),
        ("cudaDeviceProp.directManagedMemAccessFromHost", std::mem::offset_of!(DeviceProp, directManagedMemAccessFromHost)),
        ("cudaDeviceProp.maxBlocksPerMultiProcessor", std::mem::offset_of!(DeviceProp, maxBlocksPerMultiProcessor)),
        ("cudaDeviceProp.accessPolicyMaxWindowSize", std::mem::offset_of!(DeviceProp, accessPolicyMaxWindowSize)),
        ("cudaDeviceProp.reservedSharedMemPerBlock", std::mem::offset_of!(DeviceProp, reservedSharedMemPerBlock)),
        ("cudaDeviceProp.hostRegisterSupported", std::mem::offset_of!(DeviceProp, hostRegisterSupported)),
        ("cudaDeviceProp.sparseCudaArraySupported", std::mem::offset_of!(DeviceProp, sparseCudaArraySupported)),
        ("cudaDeviceProp.hostRegisterReadOnlySupported", std::mem::offset_of!(DeviceProp, hostRegisterReadOnlySupported)),
        ("cudaDeviceProp.timelineSemaphoreInteropSupported", std::mem::offset_of!(DeviceProp, timelineSemaphoreInteropSupported)),
        ("cudaDeviceProp.memoryPoolsSupported", std::mem::offset_of!(DeviceProp, memoryPoolsSupported)),
        ("cudaDeviceProp.gpuDirectRDMASupported", std::mem::offset_of!(DeviceProp, gpuDirectRDMASupported)),
        ("cudaDeviceProp.gpuDirectRDMAFlushWritesOptions", std::mem::offset_of!(DeviceProp, gpuDirectRDMAFlushWritesOptions)),
        ("cudaDeviceProp.gpuDirectRDMAWritesOrdering", std::mem::offset_of!(DeviceProp, gpuDirectRDMAWritesOrdering)),
        ("cudaDeviceProp.memoryPoolSupportedHandleTypes", std::mem::offset_of!(DeviceProp, memoryPoolSupportedHandleTypes)),
        ("cudaDeviceProp.deferredMappingCudaArraySupported", std::mem::offset_of!(DeviceProp, deferredMappingCudaArraySupported)),
        ("cudaDeviceProp.ipcEventSupported", std::mem::offset_of!(DeviceProp, ipcEventSupported)),
        ("cudaDeviceProp.clusterLaunch", std::mem::offset_of!(DeviceProp, clusterLaunch)),
        ("cudaDeviceProp.unifiedFunctionPointers", std::mem::offset_of!(DeviceProp, unifiedFunctionPointers)),
        ("cudaDeviceProp.deviceNumaConfig", std::mem::offset_of!(DeviceProp, deviceNumaConfig)),
        ("cudaDeviceProp.deviceNumaId", std::mem::offset_of!(DeviceProp, deviceNumaId)),
        ("cudaDeviceProp.mpsEnabled", std::mem::offset_of!(DeviceProp, mpsEnabled)),
        ("cudaDeviceProp.hostNumaId", std::mem::offset_of!(DeviceProp, hostNumaId)),
        ("cudaDeviceProp.gpuPciDeviceID", std::mem::offset_of!(DeviceProp, gpuPciDeviceID)),
        ("cudaDeviceProp.gpuPciSubsystemID", std::mem::offset_of!(DeviceProp, gpuPciSubsystemID)),
        ("cudaDeviceProp.hostNumaMultinodeIpcSupported", std::mem::offset_of!(DeviceProp, hostNumaMultinodeIpcSupported)),
        ("cudaDeviceProp.reserved", std::mem::offset_of!(DeviceProp, reserved)),
        ("cudaResourceDesc.resType", offsets::RES_TYPE),
        ("cudaResourceDesc.res.linear.devPtr", offsets::RES_DEV_PTR),
        ("cudaResourceDesc.res.pitch2D.devPtr", offsets::RES_DEV_PTR),
        ("cudaResourceDesc.res.linear.desc", offsets::RES_DESC),
        ("cudaResourceDesc.res.pitch2D.desc", offsets::RES_DESC),
        ("cudaResourceDesc.res.linear.sizeInBytes", offsets::RES_LINEAR_SIZE),
        ("cudaResourceDesc.res.pitch2D.width", offsets::RES_PITCH_WIDTH),
        ("cudaResourceDesc.res.pitch2D.height", offsets::RES_PITCH_HEIGHT),
        ("cudaResourceDesc.res.pitch2D.pitchInBytes", offsets::RES_PITCH_PITCH),
        ("cudaTextureDesc.addressMode", offsets::TEX_ADDRESS_MODE),
        ("cudaTextureDesc.filterMode", offsets::TEX_FILTER_MODE),
        ("cudaTextureDesc.readMode", offsets::TEX_READ_MODE),
        ("cudaTextureDesc.borderColor", offsets::TEX_BORDER_COLOR),
        ("cudaTextureDesc.normalizedCoords", offsets::TEX_NORMALIZED),
        ("cudaFuncAttributes.sharedSizeBytes", std::mem::offset_of!(FuncAttributes, sharedSizeBytes)),
        ("cudaFuncAttributes.constSizeBytes", std::mem::offset_of!(FuncAttributes, constSizeBytes)),
        ("cudaFuncAttributes.localSizeBytes", std::mem::offset_of!(FuncAttributes, localSizeBytes)),
        ("cudaFuncAttributes.maxThreadsPerBlock", std::mem::offset_of!(FuncAttributes, maxThreadsPerBlock)),
        ("cudaFuncAttributes.numRegs", std::mem::offset_of!(FuncAttributes, numRegs)),
        ("cudaFuncAttributes.ptxVersion", std::mem::offset_of!(FuncAttributes, ptxVersion)),
        ("cudaFuncAttributes.binaryVersion", std::mem::offset_of!(FuncAttributes, binaryVersion)),
        ("cudaFuncAttributes.cacheModeCA", std::mem::offset_of!(FuncAttributes, cacheModeCA)),
        ("cudaFuncAttributes.maxDynamicSharedSizeBytes", std::mem::offset_of!(FuncAttributes, maxDynamicSharedSizeBytes)),
        ("cudaFuncAttributes.preferredShmemCarveout", std::mem::offset_of!(FuncAttributes, preferredShmemCarveout)),
        ("cudaFuncAttributes.clusterDimMustBeSet", std::mem::offset_of!(FuncAttributes, clusterDimMustBeSet)),
        ("cudaFuncAttributes.requiredClusterWidth", std::mem::offset_of!(FuncAttributes, requiredClusterWidth)),
        ("cudaFuncAttributes.requiredClusterHeight", std::mem::offset_of!(FuncAttributes, requiredClusterHeight)),
        ("cudaFuncAttributes.requiredClusterDepth", std::mem::offset_of!(FuncAttributes, requiredClusterDepth)),
        ("cudaFuncAttributes.clusterSchedulingPolicyPreference", std::mem::offset_of!(FuncAttributes, clusterSchedulingPolicyPreference)),
        ("cudaFuncAttributes.nonPortableClusterSizeAllowed", std::mem::offset_of!(FuncAttributes, nonPortableClusterSizeAllowed)),
        ("cudaFuncAttributes.deviceNodeUpdateStatus", std::mem::offset_of!(FuncAttributes, deviceNodeUpdateStatus)),
        ("cudaFuncAttributes.sharedMemoryMode", std::mem::offset_of!(FuncAttributes, sharedMemoryMode)),
        ("cudaFuncAttributes.reserved", std::mem::offset_of!(FuncAttributes, reserved)),
    ];
    let mut c = String::from("#include <stdio.h>\n#include <stddef.h>\n#include <driver_types.h>\n#include <texture_types.h>\nint main(void) {\n");
    for (name, _) in &rust {
        match name.strip_prefix("sizeof ") {
            Some(ty) => c += &format!("    printf(\"{name} %zu\\n\", sizeof(struct {ty}));\n"),
            None => {
                let (ty, field) = name.split_once('.').unwrap();
                c += &format!("    printf(\"{name} %zu\\n\", offsetof(struct {ty}, {field}));\n");
            }
        }
    }
    c += "    return 0;\n}\n";
    std::fs::write(dir.join("layout.c"), c).unwrap();
    let o = Command::new("cc").arg("-I").arg(&include).arg(dir.join("layout.c")).arg("-o").arg(dir.join("layout")).output().expect("cc");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = Command::new(dir.join("layout")).output().unwrap();
    let c_side = String::from_utf8(o.stdout).unwrap();
    let want: Vec<String> = rust.iter().map(|(n, v)| format!("{n} {v}")).collect();
    assert_eq!(c_side.lines().collect::<Vec<_>>(), want);
}
