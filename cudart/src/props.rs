//! The C structures the runtime API fills, laid out as CUDA 13's
//! `driver_types.h` declares them (a test compares sizes and offsets with
//! the header's, compiled by the C compiler).

/// `struct cudaDeviceProp`.
#[repr(C)]
#[allow(non_snake_case)]
pub struct DeviceProp {
    pub name: [u8; 256],
    pub uuid: [u8; 16],
    pub luid: [u8; 8],
    pub luidDeviceNodeMask: u32,
    pub totalGlobalMem: usize,
    pub sharedMemPerBlock: usize,
    pub regsPerBlock: i32,
    pub warpSize: i32,
    pub memPitch: usize,
    pub maxThreadsPerBlock: i32,
    pub maxThreadsDim: [i32; 3],
    pub maxGridSize: [i32; 3],
    pub totalConstMem: usize,
    pub major: i32,
    pub minor: i32,
    pub textureAlignment: usize,
    pub texturePitchAlignment: usize,
    pub multiProcessorCount: i32,
    pub integrated: i32,
    pub canMapHostMemory: i32,
    pub maxTexture1D: i32,
    pub maxTexture1DMipmap: i32,
    pub maxTexture2D: [i32; 2],
    pub maxTexture2DMipmap: [i32; 2],
    pub maxTexture2DLinear: [i32; 3],
    pub maxTexture2DGather: [i32; 2],
    pub maxTexture3D: [i32; 3],
    pub maxTexture3DAlt: [i32; 3],
    pub maxTextureCubemap: i32,
    pub maxTexture1DLayered: [i32; 2],
    pub maxTexture2DLayered: [i32; 3],
    pub maxTextureCubemapLayered: [i32; 2],
    pub maxSurface1D: i32,
    pub maxSurface2D: [i32; 2],
    pub maxSurface3D: [i32; 3],
    pub maxSurface1DLayered: [i32; 2],
    pub maxSurface2DLayered: [i32; 3],
    pub maxSurfaceCubemap: i32,
    pub maxSurfaceCubemapLayered: [i32; 2],
    pub surfaceAlignment: usize,
    pub concurrentKernels: i32,
    pub ECCEnabled: i32,
    pub pciBusID: i32,
    pub pciDeviceID: i32,
    pub pciDomainID: i32,
    pub tccDriver: i32,
    pub asyncEngineCount: i32,
    pub unifiedAddressing: i32,
    pub memoryBusWidth: i32,
    pub l2CacheSize: i32,
    pub persistingL2CacheMaxSize: i32,
    pub maxThreadsPerMultiProcessor: i32,
    pub streamPrioritiesSupported: i32,
    pub globalL1CacheSupported: i32,
    pub localL1CacheSupported: i32,
    pub sharedMemPerMultiprocessor: usize,
    pub regsPerMultiprocessor: i32,
    pub managedMemory: i32,
    pub isMultiGpuBoard: i32,
    pub multiGpuBoardGroupID: i32,
    pub hostNativeAtomicSupported: i32,
    pub pageableMemoryAccess: i32,
    pub concurrentManagedAccess: i32,
    pub computePreemptionSupported: i32,
    pub canUseHostPointerForRegisteredMem: i32,
    pub cooperativeLaunch: i32,
    pub sharedMemPerBlockOptin: usize,
    pub pageableMemoryAccessUsesHostPageTables: i32,
    pub directManagedMemAccessFromHost: i32,
    pub maxBlocksPerMultiProcessor: i32,
    pub accessPolicyMaxWindowSize: i32,
    pub reservedSharedMemPerBlock: usize,
    pub hostRegisterSupported: i32,
    pub sparseCudaArraySupported: i32,
    pub hostRegisterReadOnlySupported: i32,
    pub timelineSemaphoreInteropSupported: i32,
    pub memoryPoolsSupported: i32,
    pub gpuDirectRDMASupported: i32,
    pub gpuDirectRDMAFlushWritesOptions: u32,
    pub gpuDirectRDMAWritesOrdering: i32,
    pub memoryPoolSupportedHandleTypes: u32,
    pub deferredMappingCudaArraySupported: i32,
    pub ipcEventSupported: i32,
    pub clusterLaunch: i32,
    pub unifiedFunctionPointers: i32,
    pub deviceNumaConfig: i32,
    pub deviceNumaId: i32,
    pub mpsEnabled: i32,
    pub hostNumaId: i32,
    pub gpuPciDeviceID: u32,
    pub gpuPciSubsystemID: u32,
    pub hostNumaMultinodeIpcSupported: i32,
    pub reserved: [i32; 56],
}

/// `struct cudaFuncAttributes`.
#[repr(C)]
#[allow(non_snake_case)]
pub struct FuncAttributes {
    pub sharedSizeBytes: usize,
    pub constSizeBytes: usize,
    pub localSizeBytes: usize,
    pub maxThreadsPerBlock: i32,
    pub numRegs: i32,
    pub ptxVersion: i32,
    pub binaryVersion: i32,
    pub cacheModeCA: i32,
    pub maxDynamicSharedSizeBytes: i32,
    pub preferredShmemCarveout: i32,
    pub clusterDimMustBeSet: i32,
    pub requiredClusterWidth: i32,
    pub requiredClusterHeight: i32,
    pub requiredClusterDepth: i32,
    pub clusterSchedulingPolicyPreference: i32,
    pub nonPortableClusterSizeAllowed: i32,
    pub deviceNodeUpdateStatus: i32,
    pub sharedMemoryMode: i32,
    pub reserved: [i32; 14],
}

/// Byte offsets of the fields of `struct cudaResourceDesc` and `struct
/// cudaTextureDesc` that `cudaCreateTextureObject` reads.
pub mod offsets {
    pub const RES_TYPE: usize = 0;
    /// `res.linear.devPtr` and `res.pitch2D.devPtr`.
    pub const RES_DEV_PTR: usize = 8;
    /// `res.linear.desc` and `res.pitch2D.desc` (`struct cudaChannelFormatDesc`).
    pub const RES_DESC: usize = 16;
    pub const RES_LINEAR_SIZE: usize = 40;
    pub const RES_PITCH_WIDTH: usize = 40;
    pub const RES_PITCH_HEIGHT: usize = 48;
    pub const RES_PITCH_PITCH: usize = 56;
    pub const TEX_ADDRESS_MODE: usize = 0;
    pub const TEX_FILTER_MODE: usize = 12;
    pub const TEX_READ_MODE: usize = 16;
    pub const TEX_BORDER_COLOR: usize = 24;
    pub const TEX_NORMALIZED: usize = 40;
}
